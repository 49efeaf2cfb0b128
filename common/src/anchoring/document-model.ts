// Text positions in a manuscript (issue 9 item 5, one anchoring core): the document text is the
// `textContent` of the reader box, an element whose innerHTML is the stored manuscript HTML
// ("\n" between blocks included). The server reads it from the parsed HTML (hast), the browser
// from the pristine reader box (DOM); both walk the same nodes here, so a position one side
// computes is the same position on the other.

/** A text node: its span in the document text and its child-index path from the box. */
export interface TextNodeSpan {
  start: number;
  end: number;
  path: number[];
}

/** A top-level element with an id (a block: heading, paragraph…) and its span in the text. */
export interface BlockSpan {
  id: string;
  start: number;
  end: number;
}

/** The document text with its text nodes and blocks, what anchors are computed against. */
export interface DocumentModel {
  text: string;
  /** Every text node in document order. */
  nodes: TextNodeSpan[];
  /** Top-level elements with an id, in order. */
  blocks: BlockSpan[];
  /** path key ("0/3/1") → index in `nodes`, built on first use. */
  pathIndex?: Map<string, number>;
}

/** A tree read as the walk needs it: text nodes, elements (with an id) and their children. */
export interface TreeReader<Node> {
  children(node: Node): ArrayLike<Node>;
  /** The text of a text node, or null for any other node. */
  textOf(node: Node): string | null;
  /** True for an element (whose children are walked). */
  isElement(node: Node): boolean;
  /** An element's id, or null. */
  idOf(node: Node): string | null;
}

/** The document model of a box (the walk both the server and the browser use). */
export function buildModel<Node>(box: Node, tree: TreeReader<Node>): DocumentModel {
  const parts: string[] = [];
  const nodes: TextNodeSpan[] = [];
  const blocks: BlockSpan[] = [];
  let length = 0;
  const walk = (parent: Node, path: number[]) => {
    const children = tree.children(parent);
    for (let index = 0; index < children.length; index++) {
      const child = children[index]!;
      const value = tree.textOf(child);
      if (value !== null) {
        nodes.push({ start: length, end: length + value.length, path: [...path, index] });
        parts.push(value);
        length += value.length;
      } else if (tree.isElement(child)) {
        const start = length;
        walk(child, [...path, index]);
        const id = tree.idOf(child);
        if (path.length === 0 && id) blocks.push({ id, start, end: length });
      }
    }
  };
  walk(box, []);
  return { text: parts.join(''), nodes, blocks };
}

/** The part of a hast tree (server: parsed manuscript HTML) the walk reads. */
export type HastLike =
  | { type: 'text'; value: string }
  | { type: 'element'; properties?: { id?: unknown }; children: HastLike[] }
  | { type: string; children?: HastLike[] };

/** Reads a hast tree (root or element). */
export const HAST_TREE: TreeReader<HastLike> = {
  children: (node) => ('children' in node && node.children ? node.children : []),
  textOf: (node) => (node.type === 'text' && 'value' in node ? node.value : null),
  isElement: (node) => node.type === 'element',
  idOf: (node) => {
    const id = 'properties' in node ? node.properties?.id : undefined;
    return typeof id === 'string' ? id : null;
  },
};

/** The part of a DOM node (browser: the pristine reader box) the walk reads. */
export interface DomLike {
  nodeType: number;
  childNodes: ArrayLike<DomLike>;
}
const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/** Reads a DOM tree. */
export const DOM_TREE: TreeReader<DomLike> = {
  children: (node) => node.childNodes,
  textOf: (node) =>
    node.nodeType === TEXT_NODE ? (node as unknown as { data: string }).data : null,
  isElement: (node) => node.nodeType === ELEMENT_NODE,
  idOf: (node) => (node as unknown as { id?: string }).id || null,
};

/** The block that holds position `at` (the last block starting at or before it), or null. */
export function blockAt(model: Pick<DocumentModel, 'blocks'>, at: number): BlockSpan | null {
  let low = 0;
  let high = model.blocks.length - 1;
  let found: BlockSpan | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const block = model.blocks[middle]!;
    if (block.start <= at) {
      found = block;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found && at < found.end ? found : null;
}

/**
 * The text node path and offset of a position: a range start takes the node the next
 * character is in; a range end (`asEnd`) the node the previous character is in.
 */
export function pathAt(
  model: Pick<DocumentModel, 'nodes'>,
  at: number,
  asEnd = false,
): { path: number[]; offset: number } | null {
  // Text nodes are contiguous: the first one ending after `at` (at or after, for an end) holds it.
  const { nodes } = model;
  let low = 0;
  let high = nodes.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const end = nodes[middle]!.end;
    if (asEnd ? end >= at : end > at) high = middle;
    else low = middle + 1;
  }
  const node = nodes[low];
  if (!node || (asEnd && at === 0)) return null;
  return { path: [...node.path], offset: at - node.start };
}

const pathKey = (path: readonly number[]) => path.join('/');

/** The position of a child-index path + offset (a range boundary), or null. */
export function positionOfPath(
  model: DocumentModel,
  path: readonly number[],
  offset: number,
): number | null {
  if (!model.pathIndex) {
    model.pathIndex = new Map(model.nodes.map((node, index) => [pathKey(node.path), index]));
  }
  const index = model.pathIndex.get(pathKey(path));
  if (index === undefined) return null;
  const node = model.nodes[index]!;
  if (offset < 0 || offset > node.end - node.start) return null;
  return node.start + offset;
}
