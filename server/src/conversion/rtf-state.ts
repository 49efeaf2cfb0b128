// The state an RTF group carries: where its text goes (the destination), character and paragraph
// properties, and what the group reads for (a field, a picture, a style). A `{` starts a copy of
// the state, `}` returns to the one before.
import type { Flow } from './rtf-flow.ts';
import type { StyleEntry } from './rtf-styles.ts';
import type { CodePageDecoder } from './rtf-text.ts';

/** Where the text of a group goes. */
type Destination =
  | 'text' // the document (body or a footnote)
  | 'drop' // nowhere, but nested destinations are still read (info, shapes, objects)
  | 'fonttbl'
  | 'stylesheet'
  | 'styleEntry'
  | 'listtable'
  | 'listoverridetable'
  | 'pn'
  | 'title'
  | 'fieldInstruction'
  | 'picture'
  | 'shapeName'
  | 'shapeValue';

interface FieldState {
  instruction: string;
  /** Where the field's result goes: where the field stands. */
  resultDestination: Destination;
}

export interface PictureState {
  /** The format of a metafile or other type that is not shown (its data is not read), or null. */
  unshown: string | null;
  /** The picture data as hex text, or as \bin bytes. */
  hex: string[];
  binary: Uint8Array | null;
  alt: string;
}

interface ShapeProperty {
  name: string;
  value: string;
}

export class GroupState {
  destination: Destination = 'text';
  // Character properties: ITALIC/BOLD/… bits, hidden text (\v), the link of a HYPERLINK field.
  format = 0;
  hidden = false;
  link: string | null = null;
  font = -1;
  decoder: CodePageDecoder;
  /** How many fallback characters follow each \uN (\ucN). */
  unicodeSkip = 1;
  // Paragraph properties.
  style = 0;
  outlineLevel = -1;
  list = 0;
  listLevel = 0;
  inTable = false;
  /** Old-style (Word 95) numbering from \pnlvlblt / \pnlvlbody. */
  numbering: 'ul' | 'ol' | null = null;
  // What the group reads for; shared with nested groups.
  field: FieldState | null = null;
  picture: PictureState | null = null;
  shapeProperty: ShapeProperty | null = null;
  styleEntry: StyleEntry | null = null;
  // Of this group only, not copied into nested groups.
  /** The group started with \*: skip it unless its first control word is known. */
  ignorable = false;
  onClose: ((state: GroupState) => void) | null = null;

  constructor(
    public flow: Flow,
    decoder: CodePageDecoder,
  ) {
    this.decoder = decoder;
  }

  /** The state of a nested group. */
  clone(): GroupState {
    const copy = new GroupState(this.flow, this.decoder);
    copy.destination = this.destination;
    copy.format = this.format;
    copy.hidden = this.hidden;
    copy.link = this.link;
    copy.font = this.font;
    copy.unicodeSkip = this.unicodeSkip;
    copy.style = this.style;
    copy.outlineLevel = this.outlineLevel;
    copy.list = this.list;
    copy.listLevel = this.listLevel;
    copy.inTable = this.inTable;
    copy.numbering = this.numbering;
    copy.field = this.field;
    copy.picture = this.picture;
    copy.shapeProperty = this.shapeProperty;
    copy.styleEntry = this.styleEntry;
    return copy;
  }

  /** \pard: default paragraph properties. */
  resetParagraph(): void {
    this.style = 0;
    this.outlineLevel = -1;
    this.list = 0;
    this.listLevel = 0;
    this.inTable = false;
    this.numbering = null;
  }
}

/** Destinations never shown: skipped unread, with or without \*. */
export const SKIPPED_DESTINATIONS = new Set([
  'aftncn',
  'aftnsep',
  'aftnsepc',
  'annotation',
  'atnauthor',
  'atndate',
  'atnicn',
  'atnid',
  'atnparent',
  'atnref',
  'atntime',
  'atrfend',
  'atrfstart',
  'author',
  'bkmkend',
  'bkmkstart',
  'blipuid',
  'buptim',
  'bxe',
  'category',
  'colorschememapping',
  'colortbl',
  'comment',
  'company',
  'creatim',
  'datastore',
  'do',
  'doccomm',
  'docvar',
  'falt',
  'fchars',
  'ffdeftext',
  'ffentrymcr',
  'ffexitmcr',
  'ffformat',
  'ffhelptext',
  'ffname',
  'ffstattext',
  'filetbl',
  'fontemb',
  'fontfile',
  'footer',
  'footerf',
  'footerl',
  'footerr',
  'ftncn',
  'ftnsep',
  'ftnsepc',
  'generator',
  'header',
  'headerf',
  'headerl',
  'headerr',
  'hlinkbase',
  'ixe',
  'keywords',
  'latentstyles',
  'lchars',
  'levelnumbers',
  'leveltext',
  'listname',
  'listpicture',
  'listtext',
  'manager',
  'mmathPr',
  'nonesttables',
  'nonshppict',
  'objclass',
  'objdata',
  'objname',
  'operator',
  'panose',
  'pgdsctbl',
  'pntext',
  'pntxta',
  'pntxtb',
  'printim',
  'private',
  'pxe',
  'revtbl',
  'revtim',
  'rsidtbl',
  'rxe',
  'shprslt',
  'subject',
  'tc',
  'tcn',
  'template',
  'themedata',
  'txe',
  'userprops',
  'wgrffmtfilter',
  'xe',
  'xmlnstbl',
]);

/** Control words that stand for one character. */
export const CHARACTER_WORDS: Record<string, string> = {
  tab: ' ',
  emdash: '\u2014',
  endash: '\u2013',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201c',
  rdblquote: '\u201d',
  bullet: '\u2022',
  emspace: '\u2003',
  enspace: '\u2002',
  qmspace: '\u2005',
  zwj: '\u200d',
  zwnj: '\u200c',
};

/** The URL of a `HYPERLINK "url"` field instruction; null for other fields and `\l` anchors. */
export function hyperlinkTarget(instruction: string): string | null {
  const rest = /^\s*HYPERLINK\s+([^]*)$/i.exec(instruction)?.[1]?.trim();
  if (rest === undefined || /^\\l(?![a-z])/i.test(rest)) return null;
  const url = /^"([^"]*)"/.exec(rest)?.[1] ?? /^[^\s"\\]+/.exec(rest)?.[0];
  return url?.trim() || null;
}
