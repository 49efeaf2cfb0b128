// The control words of document text: paragraph and character properties, paragraph, cell and row
// ends. Words not listed here (page layout, colours, revision ids…) change nothing we show.
import type { RtfHeader } from './rtf-header.ts';
import { CHARACTER_WORDS, type GroupState } from './rtf-state.ts';
import { formatChange } from './rtf-styles.ts';

/** Applies a control word of document text to the state; returns the text it stands for, if any. */
export function applyTextWord(
  state: GroupState,
  header: RtfHeader,
  word: string,
  param: number | null,
): string | null {
  const change = formatChange(word, param);
  if (change !== null) {
    state.format = (state.format & ~change.clear) | change.set;
    return null;
  }
  const character = CHARACTER_WORDS[word];
  if (character !== undefined) return character;
  const flow = state.flow;
  switch (word) {
    case 'par':
      flow.endParagraph(...header.paragraphEnd(state));
      break;
    case 'pard':
      state.resetParagraph();
      break;
    case 'plain':
      state.format = 0;
      state.hidden = false;
      header.setFont(state, header.defaultFont);
      break;
    case 's':
      state.style = param ?? 0;
      break;
    case 'cs':
      state.format |= header.styles.character(param ?? 0);
      break;
    case 'v':
    case 'deleted': // tracked deletions are not part of the text
      state.hidden = param !== 0;
      break;
    case 'f':
      header.setFont(state, param ?? 0);
      break;
    case 'line':
      if (!state.hidden) flow.addInline({ kind: 'break', format: state.format, link: state.link });
      break;
    case 'intbl':
      state.inTable = true;
      break;
    case 'itap':
      state.inTable = (param ?? 1) > 0;
      break;
    case 'cell': {
      const [shape, , styleFormat] = header.paragraphEnd(state);
      flow.endCell(shape, styleFormat);
      break;
    }
    case 'nestcell': {
      // Nested tables are flattened: their cells become paragraphs of the outer cell.
      const [shape, , styleFormat] = header.paragraphEnd(state);
      flow.endParagraph(shape, true, styleFormat);
      break;
    }
    case 'row':
      flow.endRow();
      break;
    case 'sect':
      // A section break ends the paragraph it stands in, as \par does.
      if (flow.hasContent) flow.endParagraph(...header.paragraphEnd(state));
      break;
    case 'trowd':
      flow.rowHeader = false;
      break;
    case 'trhdr':
      flow.rowHeader = true;
      break;
    case 'ls':
      state.list = param ?? 0;
      break;
    case 'ilvl':
      state.listLevel = Math.max(0, param ?? 0);
      break;
    case 'outlinelevel':
      state.outlineLevel = param ?? -1;
      break;
    default:
      applyDocumentWord(state, header, word, param);
  }
  return null;
}

/** Words of the document's start: its code page and default font. */
function applyDocumentWord(
  state: GroupState,
  header: RtfHeader,
  word: string,
  param: number | null,
): void {
  switch (word) {
    case 'ansicpg':
      header.documentCodePage = param ?? 1252;
      break;
    case 'mac':
      header.documentCodePage = 10000;
      break;
    case 'pc':
      header.documentCodePage = 437;
      break;
    case 'pca':
      header.documentCodePage = 850;
      break;
    case 'deff':
      header.defaultFont = param ?? 0;
      state.font = header.defaultFont;
      break;
    default:
      return;
  }
  header.setFont(state, state.font);
}
