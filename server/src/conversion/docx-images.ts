// Pictures: DrawingML (w:drawing → wp:inline/wp:anchor → pic:pic → a:blip) and VML
// (v:imagedata), as mammoth finds them. Only pictures inside the package are read; the image
// store keeps only safe raster formats, and the normaliser marks the rest. A picture linked from
// outside the file (r:link, or a relationship with TargetMode="External") is never fetched: an
// <img> with its address, which the normaliser marks (remote, or not in the file) and reports.
import type { Properties } from 'hast';
import type { DocxBodyReader } from './docx-body.ts';
import { tag, voidElement, type HtmlElement, type HtmlNode, type HtmlTag } from './docx-html.ts';
import { childrenNamed, first, imageEntryName, UnsupportedDocx } from './docx-package.ts';
import type { ImageCollector } from './images.ts';
import type { XmlElement } from './odt-xml.ts';
import type { CheckedZip } from './zip.ts';

const BLIP_PATH = ['a:graphic', 'a:graphicData', 'pic:pic', 'pic:blipFill', 'a:blip'];

/**
 * The images of one document. Only whether a picture's entry exists is known while reading (a
 * missing one is left out, as mammoth leaves it out); the images are stored afterwards, in the
 * order they stand in the finished tree, which is the order mammoth stores them in.
 */
export class DocxImages {
  private readonly entries = new Map<HtmlTag, string>();
  private readonly urls = new Map<string, string | null>();
  /** Public URL → public URL, for the normaliser, which drops images not listed. */
  readonly sources = new Map<string, string>();

  constructor(
    private readonly archive: CheckedZip,
    private readonly collector: ImageCollector,
  ) {}

  /** An <img> for the picture at this relationship target, or null when there is no such entry. */
  image(target: string, alt: string | undefined): HtmlNode | null {
    const entry = imageEntryName(target);
    if (!this.archive.has(entry)) return null;
    const imageTag = tag('img', alt ? { alt, src: '' } : { src: '' });
    this.entries.set(imageTag, entry);
    return voidElement(imageTag);
  }

  /** Stores the image of an <img> made by image(): its src becomes the public URL, or stays ''. */
  store(element: HtmlElement): void {
    const entry = this.entries.get(element.tag);
    if (entry === undefined) return;
    let url = this.urls.get(entry);
    if (url === undefined) {
      url = this.collector.add(this.archive.read(entry) ?? new Uint8Array());
      if (url !== null) this.sources.set(url, url);
      this.urls.set(entry, url);
    }
    if (url !== null) (element.tag.properties as Properties).src = url;
  }
}

/** The pictures of a wp:inline or wp:anchor, linked when the picture has a click link. */
export function readDrawing(reader: DocxBodyReader, drawing: XmlElement, out: HtmlNode[]): void {
  let blips = [drawing];
  for (const name of BLIP_PATH) blips = blips.flatMap((element) => childrenNamed(element, name));
  const properties = first(drawing, 'wp:docPr');
  const description = properties?.attributes.descr;
  const alt = isBlank(description) ? properties?.attributes.title : description;
  for (const blip of blips) {
    const image = blipImage(reader, blip, alt);
    if (image === null) continue;
    const linkId = first(properties, 'a:hlinkClick')?.attributes['r:id'];
    if (!linkId) {
      out.push(image);
      continue;
    }
    const href = targetOf(reader, linkId);
    for (const node of reader.link(href, [image])) out.push(node);
  }
}

/** A VML picture. mammoth looks for its title as o:title but never finds it: no alt text. */
export function readImageData(
  reader: DocxBodyReader,
  imageData: XmlElement,
  out: HtmlNode[],
): void {
  const id = imageData.attributes['r:id'];
  if (!id) return;
  const image = imageNode(reader, id, undefined);
  if (image !== null) out.push(image);
}

/**
 * The picture of an a:blip: embedded (r:embed) when the package holds it, else the external
 * picture of r:link ("Link to file"; with "Insert and link" Word writes both, and the copy in the
 * package is shown). An r:link to a relationship that is missing or not external is left out.
 */
function blipImage(
  reader: DocxBodyReader,
  blip: XmlElement,
  alt: string | undefined,
): HtmlNode | null {
  const embedded = blip.attributes['r:embed'];
  const image = embedded ? imageNode(reader, embedded, alt) : null;
  if (image !== null) return image;
  const linked = blip.attributes['r:link'];
  const relationship = linked ? reader.relationships.get(linked) : undefined;
  return relationship?.external ? linkedImage(relationship.target, alt) : null;
}

function imageNode(reader: DocxBodyReader, id: string, alt: string | undefined): HtmlNode | null {
  const relationship = reader.relationships.get(id);
  if (relationship?.external) return linkedImage(relationship.target, alt);
  return reader.context.images.image(targetOf(reader, id), alt);
}

/** A picture outside the file: its address as src, for the normaliser to mark (never fetched). */
function linkedImage(target: string, alt: string | undefined): HtmlNode {
  return voidElement(tag('img', alt ? { alt, src: target } : { src: target }));
}

// mammoth fails on a relationship that is not there.
function targetOf(reader: DocxBodyReader, id: string): string {
  const target = reader.relationships.get(id)?.target;
  if (target === undefined) throw new UnsupportedDocx(`relationship ${id}`);
  return target;
}

function isBlank(value: string | undefined): boolean {
  return value === undefined || /^\s*$/.test(value);
}
