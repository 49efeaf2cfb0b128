// Tables as mammoth writes them: leading header rows (w:tblHeader) in <thead> with <th> cells,
// the rest in <tbody>; w:gridSpan as colspan; vertically merged cells (w:vMerge) as one cell
// with a rowspan; deleted rows left out; nested tables read like any other.
import type { DocxBodyReader } from './docx-body.ts';
import { keptElement, tag, wrap, type HtmlElement, type HtmlNode } from './docx-html.ts';
import { childValue, fallbackOf, first, UnsupportedDocx } from './docx-package.ts';
import type { XmlElement, XmlNode } from './odt-xml.ts';

interface Cell {
  content: HtmlNode[];
  colSpan: number;
  rowSpan: number;
  /** true: continues the merged cell above; false: starts one or stands alone; null: neither. */
  vMerge: boolean | null;
}

interface Row {
  cells: Cell[];
  isHeader: boolean;
}

const TABLE = tag('table');
const ROW = tag('tr');
const HEAD = [tag('thead')];
const BODY = [tag('tbody')];

/** A w:tbl as a <table> element. */
export function readTable(reader: DocxBodyReader, table: XmlElement): HtmlElement {
  // null: a bookmark between rows (see forEachChild), which still ends the header rows.
  const items: Array<Row | null> = [];
  let strays = false;
  forEachChild(
    reader,
    table.children,
    'w:tr',
    (row) => {
      const properties = first(row, 'w:trPr');
      if (first(properties, 'w:del') !== null) return;
      const cells: Cell[] = [];
      const visitCell = (cell: XmlElement) => cells.push(readCell(reader, cell));
      forEachChild(reader, row.children, 'w:tc', visitCell, () => (strays = true));
      items.push({ cells, isHeader: first(properties, 'w:tblHeader') !== null });
    },
    () => {
      strays = true;
      items.push(null);
    },
  );
  const rows = items.filter((item) => item !== null);
  // mammoth leaves merged cells unmerged in a table with anything but rows and cells in it.
  if (!strays) mergeRows(rows);

  const bodyStart = items.findIndex((item) => item === null || !item.isHeader);
  const headCount = bodyStart < 0 ? rows.length : bodyStart;
  const head = rows.slice(0, headCount).map((row) => rowElement(row, 'th'));
  const body = rows.slice(headCount).map((row) => rowElement(row, 'td'));
  // Without header rows, the rows stand in the table itself.
  if (headCount === 0) return keptElement(TABLE, body);
  return keptElement(TABLE, [...wrap(HEAD, head), ...wrap(BODY, body)]);
}

function readCell(reader: DocxBodyReader, cell: XmlElement): Cell {
  const content: HtmlNode[] = [];
  reader.readBlocks(cell.children, content);
  const properties = first(cell, 'w:tcPr');
  const gridSpan = childValue(properties, 'w:gridSpan');
  const vMerge = first(properties, 'w:vMerge');
  let merge: boolean | null = null;
  if (vMerge !== null) {
    const value = vMerge.attributes['w:val'];
    merge = value === 'continue' || !value;
  }
  return { content, colSpan: gridSpan ? parseInt(gridSpan, 10) : 1, rowSpan: 1, vMerge: merge };
}

/**
 * Calls `visit` for each child with this name, looking through the wrappers rows and cells can
 * stand in. A bookmark among rows or cells (Word puts them there) is an empty <a id> in mammoth's
 * HTML, which an HTML parser moves out in front of the table, where the normaliser drops it: only
 * its effect on merged cells stays. Anything else there would be moved too: mammoth converts it.
 */
function forEachChild(
  reader: DocxBodyReader,
  children: readonly XmlNode[],
  name: string,
  visit: (element: XmlElement) => void,
  onBookmark: () => void,
): void {
  for (const child of children) {
    if (typeof child === 'string') continue;
    if (child.name === name) {
      visit(child);
      continue;
    }
    let wrapped: readonly XmlNode[] | null = null;
    if (child.name === 'w:sdt') wrapped = first(child, 'w:sdtContent')?.children ?? [];
    else if (WRAPPERS.has(child.name)) wrapped = child.children;
    else if (child.name === 'mc:AlternateContent') wrapped = fallbackOf(child)?.children ?? [];
    if (wrapped !== null) {
      forEachChild(reader, wrapped, name, visit, onBookmark);
      continue;
    }
    const stray: HtmlNode[] = [];
    reader.readBlocks([child], stray);
    if (stray.length === 0) continue;
    if (child.name !== 'w:bookmarkStart') {
      throw new UnsupportedDocx(`${child.name} among table rows or cells`);
    }
    onBookmark();
  }
}

const WRAPPERS = new Set(['w:customXml', 'w:ins', 'w:moveTo', 'w:smartTag']);

/** mammoth's rowspans: a cell that continues a merge adds a row to the cell above it. */
function mergeRows(rows: Row[]): void {
  const columns: Record<string, Cell> = Object.create(null);
  for (const row of rows) {
    let index = 0;
    for (const cell of row.cells) {
      const above = columns[String(index)];
      if (cell.vMerge && above !== undefined) {
        above.rowSpan += 1;
      } else {
        columns[String(index)] = cell;
        cell.vMerge = false;
      }
      index += cell.colSpan;
    }
  }
  for (const row of rows) row.cells = row.cells.filter((cell) => !cell.vMerge);
}

function rowElement(row: Row, cellTag: 'td' | 'th'): HtmlElement {
  return keptElement(
    ROW,
    row.cells.map((cell) => {
      const properties: Record<string, string> = {};
      if (cell.colSpan !== 1) properties.colSpan = String(cell.colSpan);
      if (cell.rowSpan !== 1) properties.rowSpan = String(cell.rowSpan);
      return keptElement(tag(cellTag, properties), cell.content);
    }),
  );
}
