// Our DOCX reader: the parts of the package (docx-package.ts), styles and lists
// (docx-styles.ts, docx-style-map.ts), the body (docx-body.ts, docx-tables.ts, docx-images.ts)
// and the notes, read into the tree mammoth's HTML would parse to (docx-html.ts).
import type { Root } from 'hast';
import { DocxBodyReader } from './docx-body.ts';
import {
  collapse,
  tag,
  toHast,
  wrap,
  type HtmlElement,
  type HtmlNode,
  type HtmlTag,
} from './docx-html.ts';
import { DocxImages } from './docx-images.ts';
import { childrenNamed, first, DocxPackage, UnsupportedDocx } from './docx-package.ts';
import { DocxStyleMap } from './docx-style-map.ts';
import { DocxNumbering, DocxStyles } from './docx-styles.ts';
import type { ImageCollector } from './images.ts';
import type { XmlElement } from './odt-xml.ts';
import type { CheckedZip } from './zip.ts';

/** A footnote or endnote reference. */
export interface NoteReference {
  kind: 'footnote' | 'endnote';
  id: string;
}

/** What every part's reader shares. */
export interface DocxReaderContext {
  pkg: DocxPackage;
  styles: DocxStyles;
  numbering: DocxNumbering;
  styleMap: DocxStyleMap;
  images: DocxImages;
  /** The link tag of each note reference made (some may be left out, with a merged cell). */
  noteReferences: Map<HtmlTag, NoteReference>;
}

/** The document as a hast tree, and the image sources the normaliser may keep. */
interface DocxReading {
  root: Root;
  sources: ReadonlyMap<string, string>;
}

const NOTES_LIST = [tag('ol')];
const BACK_LINK_PARAGRAPH = tag('p', {}, false);

/** Reads a checked DOCX package; throws UnsupportedDocx for what mammoth should convert. */
export function readDocx(archive: CheckedZip, collector: ImageCollector): DocxReading {
  // A style map mammoth wrote into the package, which mammoth would follow.
  if (archive.has('mammoth/style-map')) throw new UnsupportedDocx('embedded style map');
  const pkg = new DocxPackage(archive);
  const mainPath = pkg.mainDocumentPath();
  const body = first(pkg.parse(mainPath), 'w:body');
  if (body === null) throw new UnsupportedDocx('no w:body');
  const styles = new DocxStyles(pkg.parse(pkg.partOf(mainPath, 'styles')));
  const context: DocxReaderContext = {
    pkg,
    styles,
    numbering: new DocxNumbering(pkg.parse(pkg.partOf(mainPath, 'numbering')), styles),
    styleMap: new DocxStyleMap(styles),
    images: new DocxImages(archive, collector),
    noteReferences: new Map(),
  };
  const read: HtmlNode[] = [];
  new DocxBodyReader(context, mainPath).readBlocks(body.children, read);
  const nodes = collapse(read);
  const references: NoteReference[] = [];
  forEachElement(nodes, (element) => {
    const reference = context.noteReferences.get(element.tag);
    if (reference !== undefined) references.push(reference);
  });
  for (const node of readNotes(context, mainPath, references)) nodes.push(node);
  // As mammoth writes the document: references numbered, images stored, in the order they stand.
  let number = 0;
  forEachElement(nodes, (element) => {
    if (context.noteReferences.has(element.tag)) element.children[0] = `[${(number += 1)}]`;
    context.images.store(element);
  });
  return {
    root: { type: 'root', children: toHast(nodes) },
    sources: context.images.sources,
  };
}

function forEachElement(nodes: readonly HtmlNode[], visit: (element: HtmlElement) => void): void {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    visit(node);
    forEachElement(node.children, visit);
  }
}

/**
 * The notes the text refers to, as mammoth lists them after the text: one item per reference
 * (a note referred to twice is listed twice), each ending with a link back to its reference.
 */
function readNotes(
  context: DocxReaderContext,
  mainPath: string,
  references: readonly NoteReference[],
): HtmlNode[] {
  if (references.length === 0) return [];
  const parts = {
    footnote: new NotesPart(context, context.pkg.partOf(mainPath, 'footnotes'), 'w:footnote'),
    endnote: new NotesPart(context, context.pkg.partOf(mainPath, 'endnotes'), 'w:endnote'),
  };
  const items: HtmlNode[] = [];
  for (const { kind, id } of references) {
    const part = parts[kind];
    const note = part.note(id);
    // mammoth fails on a reference to a note that is not there.
    if (note === undefined) throw new UnsupportedDocx(`${kind} ${id}`);
    const content: HtmlNode[] = [];
    new DocxBodyReader(context, part.path).readBlocks(note.children, content);
    const backLink = wrap([tag('a', { href: `#${kind}-ref-${id}` })], ['↑']);
    content.push({ tag: BACK_LINK_PARAGRAPH, children: [' ', ...backLink] });
    for (const node of wrap([tag('li', { id: `${kind}-${id}` })], content)) items.push(node);
  }
  return wrap(NOTES_LIST, items);
}

/** The notes of footnotes.xml or endnotes.xml by id, without the separators. */
class NotesPart {
  private notes: Map<string, XmlElement> | null = null;

  constructor(
    private readonly context: DocxReaderContext,
    readonly path: string,
    private readonly elementName: string,
  ) {}

  note(id: string): XmlElement | undefined {
    if (this.notes === null) {
      this.notes = new Map();
      const root = this.context.pkg.parse(this.path);
      for (const note of root === null ? [] : childrenNamed(root, this.elementName)) {
        const type = note.attributes['w:type'];
        if (type === 'separator' || type === 'continuationSeparator') continue;
        this.notes.set(note.attributes['w:id'] ?? 'undefined', note);
      }
    }
    return this.notes.get(id);
  }
}
