// The title an author gave the document in its properties (File → Properties in Word and
// LibreOffice): DOCX docProps/core.xml and ODT meta.xml both hold it as Dublin Core dc:title.
// An untitled upload takes it before the first heading.
import { decodeEntities } from './odt-xml.ts';
import type { CheckedZip } from './zip.ts';

const DUBLIN_CORE_TITLE = /<([\w.-]+:)?title\b[^>]*>([\s\S]*?)<\/\1title\s*>/;
// Property parts are a few kB; a huge one is not worth reading for a title.
const MAX_PROPERTIES_BYTES = 256 * 1024;
const CORE_PROPERTIES_TYPE = /\/metadata\/core-properties$/;
const RELATIONSHIP = /<(?:\w+:)?Relationship\b[^>]*>/g;
// Titles that word processors and converters fill in by themselves, which say nothing.
const GENERATED_TITLE =
  /^(?:microsoft word\s*-\s*.*|untitled(?:\s*\d*)?|document\s*\d*|title|sans titre|\s*)$/i;

/** The dc:title of a DOCX's core properties, or null. */
export function readDocxPropertyTitle(archive: CheckedZip): string | null {
  return titleOf(readSmallPart(archive, corePropertiesPath(archive)));
}

/** The dc:title of an ODT's meta.xml, or null. */
export function readOdtPropertyTitle(archive: CheckedZip): string | null {
  return titleOf(readSmallPart(archive, 'meta.xml'));
}

/** The text of the first dc:title element of a properties part, unless it is a generated one. */
function titleOf(xml: string | null): string | null {
  if (xml === null) return null;
  const match = DUBLIN_CORE_TITLE.exec(xml);
  if (match === null) return null;
  const title = decodeEntities(match[2] ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return GENERATED_TITLE.test(title) ? null : title;
}

function corePropertiesPath(archive: CheckedZip): string {
  const relationships = readSmallPart(archive, '_rels/.rels') ?? '';
  for (const match of relationships.matchAll(RELATIONSHIP)) {
    const type = /\sType\s*=\s*["']([^"']*)["']/.exec(match[0])?.[1] ?? '';
    const target = /\sTarget\s*=\s*["']([^"']*)["']/.exec(match[0])?.[1];
    if (target !== undefined && CORE_PROPERTIES_TYPE.test(type)) return target.replace(/^\//, '');
  }
  return 'docProps/core.xml';
}

function readSmallPart(archive: CheckedZip, name: string): string | null {
  const entry = archive.entries.find((candidate) => candidate.name === name);
  if (entry === undefined || entry.uncompressedSize > MAX_PROPERTIES_BYTES) return null;
  return archive.readText(name);
}
