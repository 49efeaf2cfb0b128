// ODT formula objects: a draw:frame holds a draw:object whose `Object N/content.xml` is MathML
// (LibreOffice Math writes it, with a picture of the formula beside it as a replacement). The
// MathML is handed to the normaliser as hast; its MathML allow-list keeps what MathML Core has.
import type { Element, ElementContent } from 'hast';
import type { ObjectResolver } from './odt-body.ts';
import { parseXml, XmlSyntaxError, type XmlElement } from './odt-xml.ts';
import type { CheckedZip } from './zip.ts';

// A formula's MathML is a few kB; an object part far larger than this is no formula.
const MAX_FORMULA_BYTES = 4 * 1024 * 1024;

/** Reads the formula objects of a package. Damaged objects are left out, not the document. */
export function formulaResolver(archive: CheckedZip): ObjectResolver {
  return (object) => {
    const href = (object.attributes['xlink:href'] ?? '').trim().replace(/^(?:\.\/)+/, '');
    if (href === '' || href.includes('..') || /^[a-z][a-z0-9+.-]*:/i.test(href)) return null;
    const path = `${href.replace(/\/+$/, '')}/content.xml`;
    const entry = archive.entries.find((candidate) => candidate.name === path);
    if (entry === undefined || entry.uncompressedSize > MAX_FORMULA_BYTES) return null;
    let root: XmlElement;
    try {
      root = parseXml(archive.readText(path) ?? '');
    } catch (error) {
      if (error instanceof XmlSyntaxError) return null;
      throw error;
    }
    if (localName(root.name) !== 'math') return null;
    return toHast(root) as Element;
  };
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** The XML tree as hast, names without prefixes (`math:mi` → `mi`), attributes as they are. */
function toHast(node: XmlElement): ElementContent {
  const properties: Record<string, string> = {};
  for (const [name, value] of Object.entries(node.attributes)) {
    if (!name.startsWith('xmlns')) properties[localName(name)] = value;
  }
  return {
    type: 'element',
    tagName: localName(node.name),
    properties,
    children: node.children.map((child) =>
      typeof child === 'string' ? { type: 'text', value: child } : toHast(child),
    ),
  };
}
