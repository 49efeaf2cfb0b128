// styles.xml and numbering.xml: style names by id, the parts of paragraph styles we use (outline
// level, list), and which list level a paragraph is on, read as mammoth reads them. Where mammoth
// stops (it looks neither at basedOn chains nor at a style's own numbering), we go on, and say so.
import { childrenNamed, childValue, first, UnsupportedDocx } from './docx-package.ts';
import type { XmlElement } from './odt-xml.ts';

interface ParagraphStyleRecord {
  name: string | null;
  basedOn: string | undefined;
  /** w:outlineLvl of the style's own paragraph properties (0-based; 9 is body text). */
  outlineLevel: number | undefined;
  /** w:numPr of the style's own paragraph properties. */
  numId: string | undefined;
  level: string | undefined;
}

/** A level of a list definition. */
export interface ListLevel {
  /** The level's index as the numbering part writes it ("0" is the outermost level). */
  level: string;
  isOrdered: boolean;
}

const MAX_CHAIN = 32;

/** The styles of one document (the first definition of an id wins, as in Word and mammoth). */
export class DocxStyles {
  private readonly paragraphStyles = new Map<string, ParagraphStyleRecord>();
  private readonly characterStyleNames = new Map<string, string | null>();
  private readonly numberingStyleNumIds = new Map<string, string | undefined>();
  /** Every style id styles.xml defines, of any type. */
  readonly definedIds = new Set<string>();
  readonly hasStylesPart: boolean;

  constructor(root: XmlElement | null) {
    this.hasStylesPart = root !== null;
    if (root === null) return;
    for (const style of childrenNamed(root, 'w:style')) {
      const id = style.attributes['w:styleId'] ?? '';
      const type = style.attributes['w:type'];
      this.definedIds.add(id);
      const name = childValue(style, 'w:name') ?? null;
      const properties = first(style, 'w:pPr');
      if (type === 'paragraph' && !this.paragraphStyles.has(id)) {
        const numberingProperties = first(properties, 'w:numPr');
        this.paragraphStyles.set(id, {
          name,
          basedOn: childValue(style, 'w:basedOn'),
          outlineLevel: integer(childValue(properties, 'w:outlineLvl')),
          numId: childValue(numberingProperties, 'w:numId'),
          level: childValue(numberingProperties, 'w:ilvl'),
        });
      } else if (type === 'character' && !this.characterStyleNames.has(id)) {
        this.characterStyleNames.set(id, name);
      } else if (type === 'numbering' && !this.numberingStyleNumIds.has(id)) {
        this.numberingStyleNumIds.set(id, childValue(first(properties, 'w:numPr'), 'w:numId'));
      }
    }
  }

  /** The name of a paragraph style, or null when the id names no paragraph style. */
  paragraphStyleName(id: string | null): string | null {
    return id === null ? null : (this.paragraphStyles.get(id)?.name ?? null);
  }

  characterStyleName(id: string | null): string | null {
    return id === null ? null : (this.characterStyleNames.get(id) ?? null);
  }

  /** The numId a numbering style links to; a link to an undefined style would crash mammoth. */
  numberingStyleNumId(id: string): string | undefined {
    if (!this.numberingStyleNumIds.has(id)) throw new UnsupportedDocx(`numbering style ${id}`);
    return this.numberingStyleNumIds.get(id);
  }

  /** The outline level the style gives, itself or through the styles it is based on. */
  outlineLevel(id: string | null): number | undefined {
    for (const style of this.chain(id)) {
      if (style.outlineLevel !== undefined) return style.outlineLevel;
    }
    return undefined;
  }

  /**
   * The list the style brings, itself or through the styles it is based on: the list and the
   * level are inherited each on its own ("List Bullet 2" may set only the level).
   */
  numbering(id: string | null): { numId: string | undefined; level: string | undefined } {
    let numId: string | undefined;
    let level: string | undefined;
    for (const style of this.chain(id)) {
      numId ??= style.numId;
      level ??= style.level;
    }
    return { numId, level };
  }

  /** The style and those it is based on, nearest first (a loop ends the chain). */
  private chain(id: string | null): ParagraphStyleRecord[] {
    const chain: ParagraphStyleRecord[] = [];
    let current = id === null ? undefined : this.paragraphStyles.get(id);
    while (current !== undefined && chain.length < MAX_CHAIN && !chain.includes(current)) {
      chain.push(current);
      current =
        current.basedOn === undefined ? undefined : this.paragraphStyles.get(current.basedOn);
    }
    return chain;
  }
}

interface AbstractNumbering {
  levels: Record<string, ListLevel>;
  numStyleLink: string | undefined;
}

/** The list definitions of numbering.xml. */
export class DocxNumbering {
  // Plain objects, not maps: mammoth walks them with Object.values, whose order (integer-like keys
  // first, ascending) decides which level wins when two name the same paragraph style.
  private readonly abstractNums: Record<string, AbstractNumbering> = Object.create(null);
  private readonly nums: Record<string, string> = Object.create(null);
  private readonly levelsByStyle = new Map<string, ListLevel>();

  constructor(
    root: XmlElement | null,
    private readonly styles: DocxStyles,
  ) {
    if (root === null) return;
    const styleOfLevel = new Map<ListLevel, string>();
    for (const abstractNum of childrenNamed(root, 'w:abstractNum')) {
      const levels: Record<string, ListLevel> = Object.create(null);
      let levelWithoutIndex: ListLevel | null = null;
      for (const levelElement of childrenNamed(abstractNum, 'w:lvl')) {
        const index = levelElement.attributes['w:ilvl'];
        const level: ListLevel = {
          level: index ?? '0',
          isOrdered: childValue(levelElement, 'w:numFmt') !== 'bullet',
        };
        const paragraphStyle = childValue(levelElement, 'w:pStyle');
        if (paragraphStyle !== undefined) styleOfLevel.set(level, paragraphStyle);
        if (index === undefined) levelWithoutIndex = level;
        else levels[index] = level;
      }
      if (levelWithoutIndex !== null && levels['0'] === undefined) levels['0'] = levelWithoutIndex;
      this.abstractNums[abstractNum.attributes['w:abstractNumId'] ?? 'undefined'] = {
        levels,
        numStyleLink: childValue(abstractNum, 'w:numStyleLink'),
      };
    }
    for (const abstractNum of Object.values(this.abstractNums)) {
      for (const level of Object.values(abstractNum.levels)) {
        const style = styleOfLevel.get(level);
        if (style !== undefined) this.levelsByStyle.set(style, level);
      }
    }
    for (const num of childrenNamed(root, 'w:num')) {
      const abstractNumId = childValue(num, 'w:abstractNumId');
      if (abstractNumId === undefined) throw new UnsupportedDocx('w:num without w:abstractNumId');
      this.nums[num.attributes['w:numId'] ?? 'undefined'] = abstractNumId;
    }
  }

  /** A level of a list by numId (numId 0, or an unknown one, is no list). */
  findLevel(numId: string, level: string, seen = new Set<string>()): ListLevel | null {
    if (seen.has(numId)) return null;
    seen.add(numId);
    const abstractNumId = this.nums[numId];
    if (abstractNumId === undefined) return null;
    const abstractNum = this.abstractNums[abstractNumId];
    if (abstractNum === undefined) return null;
    if (abstractNum.numStyleLink === undefined) return abstractNum.levels[level] ?? null;
    const linked = this.styles.numberingStyleNumId(abstractNum.numStyleLink);
    return this.findLevel(String(linked), level, seen);
  }

  /** The level whose definition names this paragraph style (how Word ties "List Bullet" to a list). */
  levelForParagraphStyle(styleId: string): ListLevel | null {
    return this.levelsByStyle.get(styleId) ?? null;
  }
}

function integer(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  return Number.isInteger(number) ? number : undefined;
}
