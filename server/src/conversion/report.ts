// The conversion report an author sees after an upload (issue 10 item 8): what the document
// holds, and one sentence for each kind of thing that could not be kept, with why.
import { CONVERSION_NOTES } from '@margins/common/messages-conversion';
import type { ConversionReport } from '@margins/common/schemas/manuscript-report';
import type { NormalisedDocument } from './normalise/index.ts';

/** The report of one converted document; `refused` counts the pictures the store refused, by format. */
export function buildReport(
  document: NormalisedDocument,
  refused: ReadonlyMap<string, number>,
): ConversionReport {
  const { contents } = document;
  const notes: string[] = [];
  for (const [format, count] of refused) {
    notes.push(CONVERSION_NOTES.notePicturesUnsupported(count, format));
  }
  const remote = contents.missingPictures.filter((problem) => problem === 'remote').length;
  if (remote > 0) notes.push(CONVERSION_NOTES.notePicturesRemote(remote));
  const notInFile = contents.missingPictures.filter((problem) => problem === 'not_in_file').length;
  if (notInFile > 0) notes.push(CONVERSION_NOTES.notePicturesNotInFile(notInFile));
  return {
    words: document.words,
    chapters: contents.chapters,
    images: document.imageUrls.size,
    footnotes: contents.footnotes,
    tables: contents.tables,
    formulas: contents.formulas,
    notes,
  };
}
