import { unzipSync } from 'fflate';
import type { Root } from 'hast';
import { ConversionError } from './errors.ts';
import { conversionResult, ImageCollector } from './images.ts';
import { readOdtPropertyTitle } from './document-properties.ts';
import { normaliseHtml } from './normalise/index.ts';
import { OdtBodyReader, type ImageResolver } from './odt-body.ts';
import { formulaResolver } from './odt-math.ts';
import { OdtStyles } from './odt-styles.ts';
import {
  childElements,
  findElement,
  parseXml,
  XmlSyntaxError,
  type XmlElement,
} from './odt-xml.ts';
import { openPackage } from './package-guard.ts';
import type { CheckedZip } from './zip.ts';
import type { ConversionResult } from './types.ts';

/**
 * ODT → normalised HTML with our own reader: content.xml and styles.xml are parsed here and turned
 * into a hast tree (odt-body.ts), which goes straight to the normaliser.
 */
export async function convertOdt(
  bytes: Uint8Array,
  imageUrl: (imageId: string) => string,
): Promise<ConversionResult> {
  const archive = openOdt(bytes);
  assertReadableSize(archive);
  const images = new ImageCollector(imageUrl);
  const sources = new Map<string, string>();
  let root: Root;
  try {
    const content = parseXml(archive.readText('content.xml') ?? '');
    const stylesXml = archive.readText('styles.xml');
    const styles = new OdtStyles();
    if (stylesXml !== null) styles.addStyles(findChild(parseXml(stylesXml), 'office:styles'));
    styles.addStyles(findChild(content, 'office:automatic-styles'));
    const body = findElement(content, 'office:text');
    const reader = new OdtBodyReader(
      styles,
      imageResolver(archive, images, sources),
      formulaResolver(archive),
    );
    root = { type: 'root', children: body === null ? [] : reader.readDocument(body) };
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw unreadable(error);
    throw error;
  }
  const propertyTitle = readOdtPropertyTitle(archive);
  return conversionResult(
    normaliseHtml(root, { images: sources, trustedMarkup: true, propertyTitle }),
    images,
  );
}

const MANIFEST = 'META-INF/manifest.xml';
const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * Opens the package, telling a password-protected document from a damaged one: ODF encrypts the
 * parts inside the zip and says so in the manifest, and encrypted parts do not inflate.
 */
function openOdt(bytes: Uint8Array): CheckedZip {
  let archive: CheckedZip;
  try {
    archive = openPackage(bytes, 'odt');
  } catch (error) {
    if (
      error instanceof ConversionError &&
      error.code === 'corrupt' &&
      isEncrypted(readManifest(bytes))
    ) {
      throw encrypted();
    }
    throw error;
  }
  if (isEncrypted(archive.read(MANIFEST))) throw encrypted();
  return archive;
}

/** The manifest alone, from an archive the package guard refused (as damaged). */
function readManifest(bytes: Uint8Array): Uint8Array | null {
  try {
    const files = unzipSync(bytes, {
      filter: (file) => file.name === MANIFEST && file.originalSize <= MAX_MANIFEST_BYTES,
    });
    return files[MANIFEST] ?? null;
  } catch {
    return null;
  }
}

function isEncrypted(manifest: Uint8Array | null): boolean {
  return manifest !== null && new TextDecoder().decode(manifest).includes('encryption-data');
}

function encrypted(): ConversionError {
  return new ConversionError(
    'encrypted',
    'The document is protected with a password. Remove the password and upload again.',
  );
}

// A 150k-word novel has about 1 MB of content.xml. The parsed tree takes up to ~8× the XML in
// memory, so far larger parts (possible within the zip-bomb limits) are refused before parsing.
const MAX_XML_BYTES = 32 * 1024 * 1024;

function assertReadableSize(archive: CheckedZip): void {
  for (const entry of archive.entries) {
    if (
      (entry.name === 'content.xml' || entry.name === 'styles.xml') &&
      entry.uncompressedSize > MAX_XML_BYTES
    ) {
      throw new ConversionError(
        'too_large',
        'The document holds far more text and formatting than a manuscript needs, so we did not open it. Split it into smaller files, or save it again from your word processor, and upload again.',
      );
    }
  }
}

function findChild(parent: XmlElement, name: string): XmlElement | null {
  return childElements(parent, name)[0] ?? null;
}

/**
 * Images come from the package (Pictures/…) or, in some files, inline as base64. Links to files
 * outside the package are dropped, as are images that are not safe raster formats.
 */
function imageResolver(
  archive: CheckedZip,
  images: ImageCollector,
  sources: Map<string, string>,
): ImageResolver {
  const byPath = new Map<string, string | null>();
  const store = (data: Uint8Array): string | null => {
    const url = images.add(data);
    if (url !== null) sources.set(url, url);
    return url;
  };
  return (image) => {
    const [binary] = childElements(image, 'office:binary-data');
    if (binary !== undefined) {
      const base64 = binary.children.filter((child) => typeof child === 'string').join('');
      return store(new Uint8Array(Buffer.from(base64, 'base64')));
    }
    const path = packagePath(image.attributes['xlink:href'] ?? '', archive);
    if (path === null) return null;
    let url = byPath.get(path);
    if (url === undefined) {
      const data = archive.read(path);
      url = data === null ? null : store(data);
      byPath.set(path, url);
    }
    return url;
  };
}

/** The entry an image link names inside the package, or null for anything outside it. */
function packagePath(href: string, archive: CheckedZip): string | null {
  const path = href.trim().replace(/^(?:\.\/)+/, '');
  if (path === '' || /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/')) return null;
  if (path.split('/').includes('..')) return null;
  if (archive.has(path)) return path;
  try {
    const decoded = decodeURIComponent(path);
    return archive.has(decoded) ? decoded : null;
  } catch {
    return null;
  }
}

function unreadable(cause: unknown): ConversionError {
  return new ConversionError(
    'corrupt',
    'The ODT file could not be read (it may be damaged). Open it in your word processor, save it again, and upload the new file.',
    { cause },
  );
}
