// Where a DOCX keeps its text: the package relationship of type officeDocument in _rels/.rels
// names the main part, which Word calls word/document.xml but other writers need not.
// Used by format detection (on the raw zip) and by the package check before conversion.

const OFFICE_DOCUMENT_TYPES = [
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument',
  'http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument',
];
const RELATIONSHIP = /<(?:\w+:)?Relationship\b[^>]*>/g;
const OVERRIDE = /<(?:\w+:)?Override\b[^>]*>/g;

/** The WordprocessingML main part of a package, or null when it is no word-processing document. */
export function findDocxMainPart(
  has: (name: string) => boolean,
  readText: (name: string) => string | null,
): string | null {
  const relationships = readText('_rels/.rels');
  if (relationships !== null) {
    for (const match of relationships.matchAll(RELATIONSHIP)) {
      const type = attribute(match[0], 'Type');
      const target = attribute(match[0], 'Target');
      if (type === null || target === null || !OFFICE_DOCUMENT_TYPES.includes(type)) continue;
      const part = decodeURIComponentSafe(target.replace(/^\.?\//, ''));
      if (has(part) && isWordprocessing(part, readText)) return part;
    }
  }
  // Packages without (readable) relationships, which mammoth and Word still open.
  return has('word/document.xml') ? 'word/document.xml' : null;
}

// A spreadsheet or presentation also has an officeDocument relationship: the content type of
// its main part tells them apart. Without [Content_Types].xml the usual name decides; a part
// with no type of its own (only the default for .xml) is taken for what the relationship says.
function isWordprocessing(part: string, readText: (name: string) => string | null): boolean {
  const contentTypes = readText('[Content_Types].xml');
  if (contentTypes === null) return part === 'word/document.xml';
  for (const match of contentTypes.matchAll(OVERRIDE)) {
    const name = attribute(match[0], 'PartName')?.replace(/^\//, '');
    if (name !== undefined && name.toLowerCase() === part.toLowerCase()) {
      return /wordprocessingml/i.test(attribute(match[0], 'ContentType') ?? '');
    }
  }
  return true;
}

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  if (match === null) return null;
  return (match[1] ?? match[2] ?? '').replace(/&amp;/g, '&');
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
