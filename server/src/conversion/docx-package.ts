// The parts of a DOCX package our reader needs, found the way mammoth finds them: the main
// document through the package relationships, its styles, numbering and notes through the main
// document's relationships, each part with its own relationships (hyperlinks, images).
import { ConversionError } from './errors.ts';
import { parseXml, XmlSyntaxError, type XmlElement, type XmlNode } from './odt-xml.ts';
import type { CheckedZip } from './zip.ts';

/**
 * A document our reader does not understand (or would understand differently from mammoth in a
 * way we have not checked): the caller converts it with mammoth instead.
 */
export class UnsupportedDocx extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnsupportedDocx';
  }
}

const RELATIONSHIP_TYPES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';

// The prefixes the reader matches names by, and their namespaces. A part that binds one of these
// namespaces to another prefix (or one of these prefixes to another namespace, as Strict OOXML
// does) would be misread, so it goes to mammoth, which reads names by namespace.
const PREFIXES = new Map([
  ['w', 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'],
  ['r', 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'],
  ['wp', 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing'],
  ['a', 'http://schemas.openxmlformats.org/drawingml/2006/main'],
  ['pic', 'http://schemas.openxmlformats.org/drawingml/2006/picture'],
  ['mc', 'http://schemas.openxmlformats.org/markup-compatibility/2006'],
  ['v', 'urn:schemas-microsoft-com:vml'],
  ['w14', 'http://schemas.microsoft.com/office/word/2010/wordml'],
  ['m', 'http://schemas.openxmlformats.org/officeDocument/2006/math'],
]);
const NAMESPACES = new Set(PREFIXES.values());
const NAMESPACE_DECLARATION = /xmlns(?::([^\s=]+))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

// A 150k-word novel has about 1.5 MB of document.xml. The parsed tree takes up to ~8× the XML in
// memory, so far larger parts (possible within the zip-bomb limits) are refused before parsing.
const MAX_XML_BYTES = 32 * 1024 * 1024;

/** One relationship of a part. */
export interface Relationship {
  id: string;
  type: string;
  target: string;
  /** TargetMode="External": the target is outside the package (a web address, a file path). */
  external: boolean;
}

/** The package: parts by path, parsed on demand. */
export class DocxPackage {
  private readonly sizes: Map<string, number>;
  private readonly relationshipLists = new Map<string, Relationship[]>();
  private readonly relationshipMaps = new Map<string, Map<string, Relationship>>();

  constructor(readonly archive: CheckedZip) {
    this.sizes = new Map(archive.entries.map((entry) => [entry.name, entry.uncompressedSize]));
  }

  /** The main document part: the package's officeDocument relationship, else word/document.xml. */
  mainDocumentPath(): string {
    return this.relatedPart('', '_rels/.rels', 'officeDocument', 'word/document.xml');
  }

  /** A part the main document relates to by type (styles, numbering, footnotes, endnotes). */
  partOf(mainPath: string, type: string): string {
    return this.relatedPart(
      directoryOf(mainPath),
      relationshipsPath(mainPath),
      type,
      `word/${type}.xml`,
    );
  }

  /** The root element of an XML part, or null when the package has no such part. */
  parse(path: string): XmlElement | null {
    if ((this.sizes.get(path) ?? 0) > MAX_XML_BYTES) {
      throw new ConversionError(
        'too_large',
        'The document holds far more text and formatting than a manuscript needs, so we did not open it. Split it into smaller files, or save it again from your word processor, and upload again.',
      );
    }
    const source = this.archive.readText(path);
    if (source === null) return null;
    assertUsualPrefixes(source);
    try {
      return parseXml(source.replace(/^\ufeff/, ''));
    } catch (error) {
      if (error instanceof XmlSyntaxError) throw new UnsupportedDocx(`${path}: ${error.message}`);
      throw error;
    }
  }

  /** The relationships of a part, by id (a later duplicate id wins, as in mammoth). */
  relationships(partPath: string): Map<string, Relationship> {
    let byId = this.relationshipMaps.get(partPath);
    if (byId === undefined) {
      const list = this.relationshipList(relationshipsPath(partPath));
      byId = new Map(list.map((relationship) => [relationship.id, relationship]));
      this.relationshipMaps.set(partPath, byId);
    }
    return byId;
  }

  private relationshipList(relsPath: string): Relationship[] {
    let list = this.relationshipLists.get(relsPath);
    if (list === undefined) {
      list = [];
      for (const child of this.parse(relsPath)?.children ?? []) {
        if (typeof child === 'string' || child.name !== 'Relationship') continue;
        const { Id: id, Type: type = '', Target: target, TargetMode: mode } = child.attributes;
        const external = mode === 'External';
        if (id !== undefined && target !== undefined) list.push({ id, type, target, external });
      }
      this.relationshipLists.set(relsPath, list);
    }
    return list;
  }

  /** The first target of this type that the package holds, else the fallback (as mammoth). */
  private relatedPart(base: string, relsPath: string, type: string, fallback: string): string {
    for (const relationship of this.relationshipList(relsPath)) {
      if (relationship.type !== RELATIONSHIP_TYPES + type) continue;
      const target = joinPath(base, relationship.target).replace(/^\//, '');
      if (this.archive.has(target)) return target;
    }
    return fallback;
  }
}

/** The zip entry an image relationship points at, as mammoth resolves it. */
export function imageEntryName(target: string): string {
  return target.startsWith('/') ? target.slice(1) : `word/${target}`;
}

function directoryOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function relationshipsPath(partPath: string): string {
  const name = partPath.slice(partPath.lastIndexOf('/') + 1);
  return joinPath(directoryOf(partPath), '_rels', `${name}.rels`);
}

function joinPath(...paths: string[]): string {
  let relevant: string[] = [];
  for (const path of paths) {
    if (path === '') continue;
    if (path.startsWith('/')) relevant = [path];
    else relevant.push(path);
  }
  return relevant.join('/');
}

function assertUsualPrefixes(source: string): void {
  if (source.includes('purl.oclc.org/ooxml')) throw new UnsupportedDocx('Strict OOXML');
  for (const match of source.matchAll(NAMESPACE_DECLARATION)) {
    const prefix = match[1];
    const namespace = match[2] ?? match[3] ?? '';
    const expected = prefix === undefined ? undefined : PREFIXES.get(prefix);
    if (expected === undefined ? NAMESPACES.has(namespace) : expected !== namespace) {
      throw new UnsupportedDocx(`namespace ${namespace} bound to ${prefix ?? 'the default'}`);
    }
  }
}

/** The first child with this name, looking through mc:AlternateContent (its mc:Fallback). */
export function first(element: XmlElement | null | undefined, name: string): XmlElement | null {
  if (element == null) return null;
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (child.name === name) return child;
    if (child.name === 'mc:AlternateContent') {
      const found = first(fallbackOf(child), name);
      if (found !== null) return found;
    }
  }
  return null;
}

/** The children with this name, looking through mc:AlternateContent. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  const result: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (child.name === name) result.push(child);
    else if (child.name === 'mc:AlternateContent') {
      const fallback = fallbackOf(child);
      if (fallback !== null) result.push(...childrenNamed(fallback, name));
    }
  }
  return result;
}

/** What mammoth reads of an mc:AlternateContent: always its fallback. */
export function fallbackOf(alternateContent: XmlElement): XmlElement | null {
  for (const child of alternateContent.children) {
    if (typeof child !== 'string' && child.name === 'mc:Fallback') return child;
  }
  return null;
}

/** An attribute of the first child with this name (`w:val` of `w:pStyle`, say). */
export function childValue(
  element: XmlElement | null | undefined,
  name: string,
  attribute = 'w:val',
): string | undefined {
  return first(element, name)?.attributes[attribute];
}

/** The text directly inside an element. */
export function textOf(element: XmlElement): string {
  let text = '';
  for (const child of element.children as XmlNode[]) if (typeof child === 'string') text += child;
  return text;
}
