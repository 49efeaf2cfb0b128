// Robust anchors of highlights: where the placing and re-anchoring code lives (one import path).
// Robust anchors (STYLE.md, after Hypothesis): a highlight keeps its block, its position in the
// document text and its quote with context. Placing it in a draft falls back from the block to
// the position to the quote anywhere, exact before fuzzy; what cannot be placed is an orphan.

export { anchorAt, locateSelection, placeAnchor, type AnchorFields } from './anchor-placement.ts';
export { reanchorHighlights } from './reanchoring.ts';
