// A small, strict XML reader for the parts of an OpenDocument package. The package guard has
// already refused any DTD, so the only entities are the five predefined ones and character
// references. The result is a plain tree, with names spelt with the usual ODF prefixes.

/** An element: its qualified name (`text:p`), attributes by qualified name, and children. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}

/** Text is a plain string, with entities already decoded. */
export type XmlNode = XmlElement | string;

/** Malformed XML (the caller turns it into a "file is damaged" error). */
export class XmlSyntaxError extends Error {
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'XmlSyntaxError';
  }
}

// The prefixes this reader's callers use, by namespace. A document that binds other prefixes to
// these namespaces has its names rewritten to these.
const USUAL_PREFIXES = new Map([
  ['urn:oasis:names:tc:opendocument:xmlns:office:1.0', 'office'],
  ['urn:oasis:names:tc:opendocument:xmlns:style:1.0', 'style'],
  ['urn:oasis:names:tc:opendocument:xmlns:text:1.0', 'text'],
  ['urn:oasis:names:tc:opendocument:xmlns:table:1.0', 'table'],
  ['urn:oasis:names:tc:opendocument:xmlns:drawing:1.0', 'draw'],
  ['urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0', 'fo'],
  ['urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0', 'svg'],
  ['http://www.w3.org/1999/xlink', 'xlink'],
]);

// Documents nest a few dozen levels deep; far deeper nesting is an attack on the readers' stacks.
const MAX_DEPTH = 256;

const NAME_END = /[\s/>]/g;
const ATTRIBUTE = /\s*([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const TAG_CLOSE = /\s*(\/?)>/y;
const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g;
const NAMED_ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** Parses a whole XML document into its root element. Throws XmlSyntaxError when malformed. */
export function parseXml(source: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let renames: Map<string, string> | null = null;
  let position = 0;

  const rename = (name: string): string => {
    if (renames === null) return name;
    const colon = name.indexOf(':');
    const prefix = colon < 0 ? undefined : renames.get(name.slice(0, colon));
    return prefix === undefined ? name : prefix + name.slice(colon);
  };

  while (position < source.length) {
    const open = source.indexOf('<', position);
    const textEnd = open < 0 ? source.length : open;
    if (textEnd > position) {
      const parent = stack[stack.length - 1];
      if (parent !== undefined)
        parent.children.push(decodeEntities(source.slice(position, textEnd)));
      else if (/\S/.test(source.slice(position, textEnd)))
        throw new XmlSyntaxError('text outside the root element', position);
    }
    if (open < 0) break;

    const next = source.charCodeAt(open + 1);
    if (next === 0x3f /* ? */) {
      position = skipPast(source, '?>', open);
    } else if (next === 0x21 /* ! */) {
      if (source.startsWith('<!--', open)) {
        position = skipPast(source, '-->', open);
      } else if (source.startsWith('<![CDATA[', open)) {
        const end = source.indexOf(']]>', open);
        if (end < 0) throw new XmlSyntaxError('unclosed CDATA section', open);
        stack[stack.length - 1]?.children.push(source.slice(open + 9, end));
        position = end + 3;
      } else {
        throw new XmlSyntaxError('unexpected declaration', open);
      }
    } else if (next === 0x2f /* / */) {
      const end = source.indexOf('>', open);
      if (end < 0) throw new XmlSyntaxError('unclosed end tag', open);
      const name = rename(source.slice(open + 2, end).trim());
      const element = stack.pop();
      if (element === undefined || element.name !== name) {
        throw new XmlSyntaxError(`unexpected </${name}>`, open);
      }
      position = end + 1;
    } else {
      NAME_END.lastIndex = open + 1;
      const nameEnd = NAME_END.exec(source)?.index ?? -1;
      if (nameEnd <= open + 1) throw new XmlSyntaxError('broken start tag', open);
      const rawName = source.slice(open + 1, nameEnd);
      const attributes: Record<string, string> = {};
      let cursor = nameEnd;
      for (;;) {
        ATTRIBUTE.lastIndex = cursor;
        const attribute = ATTRIBUTE.exec(source);
        if (attribute === null) break;
        attributes[attribute[1] as string] = decodeEntities(attribute[2] ?? attribute[3] ?? '');
        cursor = ATTRIBUTE.lastIndex;
      }
      TAG_CLOSE.lastIndex = cursor;
      const close = TAG_CLOSE.exec(source);
      if (close === null) throw new XmlSyntaxError(`broken <${rawName}> tag`, open);
      position = TAG_CLOSE.lastIndex;

      if (root === null) renames = prefixRenames(attributes);
      const element: XmlElement = {
        name: rename(rawName),
        attributes: renames === null ? attributes : renameAttributes(attributes, rename),
        children: [],
      };
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.children.push(element);
      else if (root === null) root = element;
      else throw new XmlSyntaxError('a second root element', open);
      if (close[1] !== '/') {
        if (stack.length >= MAX_DEPTH) throw new XmlSyntaxError('elements nested too deeply', open);
        stack.push(element);
      }
    }
  }
  if (root === null) throw new XmlSyntaxError('no root element', 0);
  if (stack.length > 0)
    throw new XmlSyntaxError(`<${stack[stack.length - 1]?.name}> is not closed`, source.length);
  return root;
}

function skipPast(source: string, terminator: string, from: number): number {
  const end = source.indexOf(terminator, from);
  if (end < 0) throw new XmlSyntaxError(`no closing ${terminator}`, from);
  return end + terminator.length;
}

/** Replaces entity and character references; unknown names are left as they are. */
export function decodeEntities(value: string): string {
  if (value.indexOf('&') < 0) return value;
  return value.replace(ENTITY, (entity, name: string) => {
    if (name.charCodeAt(0) !== 0x23 /* # */) return NAMED_ENTITIES.get(name) ?? entity;
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return valid ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** Prefix → usual prefix, when the root element binds a known namespace to an unusual prefix. */
function prefixRenames(rootAttributes: Record<string, string>): Map<string, string> | null {
  let renames: Map<string, string> | null = null;
  for (const [name, value] of Object.entries(rootAttributes)) {
    if (!name.startsWith('xmlns:')) continue;
    const usual = USUAL_PREFIXES.get(value);
    const prefix = name.slice(6);
    if (usual === undefined || usual === prefix) continue;
    renames ??= new Map();
    renames.set(prefix, usual);
  }
  return renames;
}

function renameAttributes(
  attributes: Record<string, string>,
  rename: (name: string) => string,
): Record<string, string> {
  const renamed: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) renamed[rename(name)] = value;
  return renamed;
}

/** The element children of an element with this name. */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  const result: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child !== 'string' && (name === undefined || child.name === name))
      result.push(child);
  }
  return result;
}

/** The first element with this name, searching depth-first. */
export function findElement(element: XmlElement, name: string): XmlElement | null {
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (child.name === name) return child;
    const found = findElement(child, name);
    if (found !== null) return found;
  }
  return null;
}
