// What the author reads about the parts of a document that could not be kept as they were: in
// the reader (a placeholder where a picture stood) and in the conversion report of an upload.

const pictures = (count: number) => (count === 1 ? '1 picture' : `${count} pictures`);
const wasOrWere = (count: number) => (count === 1 ? 'was' : 'were');

export const CONVERSION_NOTES = {
  /** Placeholder of a picture on another website (never fetched: readers' privacy). */
  pictureRemote: 'Picture not loaded (it is on another website)',
  /** Placeholder of a picture in a format browsers cannot show (EMF, WMF, TIFF, SVG). */
  pictureUnsupported: 'Picture not shown (its format cannot be shown in a browser)',
  /** Placeholder of a picture the document links to but does not contain. */
  pictureNotInFile: 'Picture not included in the file',
  /** Report note: pictures in a format we cannot show, e.g. "2 pictures in EMF format could not be shown." */
  notePicturesUnsupported: (count: number, format: string) =>
    `${pictures(count)} in ${format} format could not be shown. Save ${count === 1 ? 'it' : 'them'} as PNG or JPEG in your document and upload again.`,
  /** Report note: remote pictures, never fetched. */
  notePicturesRemote: (count: number) =>
    `${pictures(count)} on ${count === 1 ? 'another website' : 'other websites'} ${wasOrWere(count)} not loaded: we never fetch pictures from elsewhere. Put ${count === 1 ? 'it' : 'them'} into the document itself to show ${count === 1 ? 'it' : 'them'}.`,
  /** Report note: pictures linked from the file but not inside it. */
  notePicturesNotInFile: (count: number) =>
    `${pictures(count)} ${wasOrWere(count)} linked from the file but not inside it, so ${count === 1 ? 'it is' : 'they are'} marked with a placeholder.`,
} as const;
