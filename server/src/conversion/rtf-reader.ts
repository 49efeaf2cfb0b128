// Reads RTF into the document model of rtf-flow.ts in one pass over the tokens: what each
// destination means (font table, stylesheet, lists, fields, footnotes, pictures, shapes) and where
// its text goes. The group machinery underneath is in rtf-groups.ts.
import type { ImageCollector } from './images.ts';
import { Flow, type Block } from './rtf-flow.ts';
import { RtfGroupReader } from './rtf-groups.ts';
import {
  CHARACTER_WORDS,
  hyperlinkTarget,
  SKIPPED_DESTINATIONS,
  type GroupState,
  type PictureState,
} from './rtf-state.ts';
import { newStyleEntry } from './rtf-styles.ts';
import { applyTextWord } from './rtf-words.ts';

/** What an RTF file holds, ready to become HTML (rtf-hast.ts). */
export interface RtfDocument {
  body: Block[];
  /** The blocks of each footnote, by number − 1. */
  notes: Block[][];
  /** The title of the document information (\info), if any. */
  title: string | null;
  /** Public URLs of the images the document shows. */
  imageUrls: Set<string>;
}

// Metafiles and device-dependent bitmaps are not shown (their data is not even read): a
// placeholder stands where they stood and the report names their format, as for EMF/WMF in
// DOCX. PNG, JPEG and pictures of no stated type are kept when their first bytes show a safe
// raster image, else marked the same way. A metafile Word writes as the fallback of a PNG
// (\nonshppict) is skipped unread with its group, so it is neither shown nor marked.
const UNSHOWN_PICTURE_TYPES = new Map([
  ['emfblip', 'EMF'],
  ['wmetafile', 'WMF'],
  ['macpict', 'Mac PICT'],
  ['pmmetafile', 'OS/2 metafile'],
  ['dibitmap', 'device-independent bitmap'],
  ['wbitmap', 'Windows bitmap'],
]);

/** Reads RTF source (the file's bytes as latin1) into blocks; images go to `images`. */
export function readRtf(source: string, images: ImageCollector): RtfDocument {
  return new RtfReader(source, images).read();
}

class RtfReader extends RtfGroupReader {
  private body: Block[] = [];
  private readonly notes: Block[][] = [];
  private title: string | null = null;
  private readonly imageUrls = new Set<string>();

  constructor(
    source: string,
    private readonly images: ImageCollector,
  ) {
    super(source);
  }

  read(): RtfDocument {
    this.readAll();
    return {
      body: this.body,
      notes: this.notes,
      title: this.title?.trim() || null,
      imageUrls: this.imageUrls,
    };
  }

  protected opened(state: GroupState, parent: GroupState): void {
    if (this.stack.length === 1) {
      state.onClose = (root) => {
        this.body = root.flow.finish(...this.header.paragraphEnd(root));
      };
    } else if (parent.destination === 'stylesheet') {
      state.destination = 'styleEntry';
      state.styleEntry = newStyleEntry();
      state.onClose = (entry) => {
        if (entry.styleEntry !== null) this.header.styles.add(entry.styleEntry);
      };
    }
  }

  /** Decoded text, to wherever the current destination sends it. */
  protected emit(value: string): void {
    const state = this.state;
    switch (state.destination) {
      case 'text':
        if (!state.hidden) state.flow.addText(value, state.format, state.link);
        return;
      case 'styleEntry':
        if (state.styleEntry !== null) state.styleEntry.name += value;
        return;
      case 'title':
        this.title = (this.title ?? '') + value;
        return;
      case 'fieldInstruction':
        if (state.field !== null) state.field.instruction += value;
        return;
      case 'shapeName':
        if (state.shapeProperty !== null) state.shapeProperty.name += value;
        return;
      case 'shapeValue':
        if (state.shapeProperty !== null) state.shapeProperty.value += value;
        return;
      default:
        return;
    }
  }

  protected handleWord(word: string, param: number | null): void {
    const state = this.state;
    if (state.ignorable) {
      state.ignorable = false;
      if (!this.startIgnorable(word, param)) this.skipGroup();
      return;
    }
    if (this.startDestination(word)) return;
    switch (state.destination) {
      case 'text': {
        const character = applyTextWord(state, this.header, word, param);
        if (character !== null) this.emit(character);
        return;
      }
      case 'fonttbl':
        return this.header.fontWord(word, param);
      case 'styleEntry':
        return this.handleStyleWord(word, param);
      case 'listtable':
        return this.header.listWord(word, param);
      case 'listoverridetable':
        return this.header.listOverrideWord(word, param);
      case 'pn':
        return this.handleNumberingWord(word);
      case 'picture':
        return this.handlePictureWord(word);
      default:
        if (word === 'f') this.header.setFont(state, param ?? 0);
        else if (CHARACTER_WORDS[word] !== undefined) this.emit(CHARACTER_WORDS[word]);
    }
  }

  /** The first control word after \*: true when this reader knows the destination. */
  private startIgnorable(word: string, param: number | null): boolean {
    const state = this.state;
    if (state.destination === 'styleEntry') {
      if (word === 's' || word === 'cs') {
        this.handleStyleWord(word, param);
        return true;
      }
      state.styleEntry = null; // table and section styles are not needed
      return false;
    }
    return this.startDestination(word);
  }

  /** Handles a control word that starts a destination; false for any other word. */
  private startDestination(word: string): boolean {
    const state = this.state;
    // In the outermost group these words would swallow the document: there they mean nothing.
    if (this.stack.length <= 1) return false;
    if (SKIPPED_DESTINATIONS.has(word)) {
      this.skipGroup();
      return true;
    }
    switch (word) {
      case 'fonttbl':
        state.destination = 'fonttbl';
        onClose(state, () => {
          // The default font's code page is known now.
          const parent = this.stack[this.stack.length - 1];
          if (parent !== undefined) this.header.setFont(parent, parent.font);
        });
        return true;
      case 'stylesheet':
      case 'listtable':
      case 'listoverridetable':
      case 'pn':
        state.destination = word;
        return true;
      case 'info':
      case 'shp':
      case 'object':
      case 'picprop':
        state.destination = 'drop';
        return true;
      case 'title':
        state.destination = 'title';
        this.title = '';
        return true;
      case 'result':
      case 'shptxt':
        state.destination = 'text';
        return true;
      case 'shppict':
      case 'shpinst':
        return true; // containers: their content is read as it comes
      case 'upr':
        // {\upr{ANSI text}{\*\ud{Unicode text}}}: the same text twice; only \ud is read.
        state.destination = 'drop';
        return true;
      case 'ud':
        state.destination = this.stack[this.stack.length - 2]?.destination ?? 'text';
        return true;
      case 'field':
        state.field = { instruction: '', resultDestination: state.destination };
        return true;
      case 'fldinst':
        state.field ??= { instruction: '', resultDestination: state.destination };
        state.destination = 'fieldInstruction';
        return true;
      case 'fldrslt':
        state.destination = state.field?.resultDestination ?? 'text';
        state.link = hyperlinkTarget(state.field?.instruction ?? '') ?? state.link;
        return true;
      case 'footnote':
        this.startNote(state);
        return true;
      case 'pict':
        this.startPicture(state);
        return true;
      case 'sp':
        state.destination = 'drop';
        state.shapeProperty = { name: '', value: '' };
        onClose(state, ({ picture, shapeProperty }) => {
          if (picture !== null && shapeProperty?.name.trim() === 'wzDescription')
            picture.alt = shapeProperty.value.trim();
        });
        return true;
      case 'sn':
      case 'sv':
        state.destination = word === 'sn' ? 'shapeName' : 'shapeValue';
        return true;
      default:
        return false;
    }
  }

  private handleStyleWord(word: string, param: number | null): void {
    const state = this.state;
    if (state.styleEntry !== null && !this.header.styleWord(state.styleEntry, word, param))
      state.styleEntry = null; // table and section styles are not needed
  }

  /** Words of an old-style {\*\pn …} group: they number the paragraph around the group. */
  private handleNumberingWord(word: string): void {
    const paragraph = this.stack[this.stack.length - 1];
    if (paragraph === undefined) return;
    if (word === 'pnlvlblt') paragraph.numbering = 'ul';
    else if (word === 'pnlvlbody') paragraph.numbering = 'ol';
  }

  /** {\footnote …}: a reference where it stands, and the note's own flow until the group ends. */
  private startNote(state: GroupState): void {
    // A note with no place in the text (in a shape, say) would be a note without a reference.
    if (state.destination !== 'text' || state.hidden) return this.skipGroup();
    const index = this.notes.length;
    this.notes.push([]);
    state.flow.addInline({ kind: 'note', number: index + 1, format: 0, link: null });
    state.flow = new Flow();
    state.destination = 'text';
    state.format = 0;
    state.hidden = false;
    state.link = null;
    state.resetParagraph();
    onClose(state, (note) => {
      this.notes[index] = note.flow.finish(...this.header.paragraphEnd(note));
    });
  }

  private startPicture(state: GroupState): void {
    const { destination } = state;
    if (destination !== 'text' && destination !== 'drop' && destination !== 'shapeValue')
      return this.skipGroup();
    const picture: PictureState = { unshown: null, hex: [], binary: null, alt: '' };
    state.destination = 'picture';
    state.picture = picture;
    onClose(state, (closing) => this.finishPicture(closing, picture));
  }

  private handlePictureWord(word: string): void {
    const picture = this.state.picture;
    const format = UNSHOWN_PICTURE_TYPES.get(word);
    if (picture === null || format === undefined) return;
    picture.unshown = format;
    this.skipGroup();
  }

  private finishPicture(state: GroupState, picture: PictureState): void {
    if (state.hidden) return;
    if (picture.unshown !== null) {
      this.images.refuse(picture.unshown);
      return this.addPicture(state, '', picture.alt);
    }
    let data = picture.binary;
    if (data === null) {
      let hex = picture.hex.join('');
      if (/[^0-9a-f]/i.test(hex)) hex = hex.replace(/[^0-9a-f]/gi, '');
      data = new Uint8Array(Buffer.from(hex.slice(0, hex.length - (hex.length % 2)), 'hex'));
    }
    const url = this.images.add(data);
    if (url !== null) this.imageUrls.add(url);
    // A picture the store refused keeps an empty src: the normaliser marks it.
    this.addPicture(state, url ?? '', picture.alt);
  }

  private addPicture(state: GroupState, src: string, alt: string): void {
    state.flow.addInline({ kind: 'image', src, alt, format: state.format, link: state.link });
  }
}

/** Adds a handler for the end of the group; it runs before those the group already has. */
function onClose(state: GroupState, handler: (state: GroupState) => void): void {
  const previous = state.onClose;
  state.onClose =
    previous === null
      ? handler
      : (closing) => {
          handler(closing);
          previous(closing);
        };
}
