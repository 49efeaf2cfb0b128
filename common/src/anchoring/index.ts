// One anchoring core for the server and the browser: text positions and quote matching.
export * from './document-model.ts';
export * from './quote-match.ts';
