// Random Word-like documents for the DOCX oracle test: a seeded mix of everything our reader
// means to read exactly as mammoth does (and a little it hands to mammoth), in combinations no
// one would write by hand. The same seed always makes the same document.
import {
  buildWordDocx,
  drawing,
  field,
  listDefinition,
  OTHER_PNG,
  paragraph,
  PNG,
  run,
  style,
  WORD_STYLES,
} from './docx-test-builder.ts';
import { escapeXml } from './test-factories.ts';

/** mulberry32: small, fast and the same on every machine. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['salt', 'harbour', 'lamp', 'Zoë', 'tide', 'the', 'a', 'café', '* * *', '', ' '];
const MORE_WORDS = ['end.', '&amp;', '<b>', '  two  spaces'];
// No style here has an outline level or a list of its own, the two things we read unlike mammoth.
const PARAGRAPH_STYLES = [
  ...[undefined, undefined, undefined, 'Normal', 'Heading1', 'Heading2', 'Heading3', 'Title'],
  ...['Subtitle', 'Quote', 'Quote', 'IntenseQuote', 'ListParagraph', 'FootnoteText'],
  ...['TOCHeading', 'Missing'],
];
const RUN_STYLES = [
  ...[undefined, undefined, undefined, 'Emphasis', 'Strong', 'SubtleEmphasis'],
  ...['IntenseEmphasis', 'BookTitle', 'Hyperlink', 'ItalicLook', 'Missing'],
];
const LINK_TARGETS = ['rIdLink1', 'rIdLink2', 'rIdJs'];
const IMAGE_TARGETS = ['rIdImage1', 'rIdImage2', 'rIdMissing', 'rIdEmf'];
const FIELDS = [
  ' HYPERLINK "https://example.com/f" ',
  ' HYPERLINK https://example.org ',
  ' HYPERLINK \\l "_Toc2" ',
  ' REF _Ref1 \\h ',
  ' PAGE ',
];
const RUN_CONTENT = [
  '<w:tab/>',
  '<w:br/>',
  '<w:br w:type="page"/>',
  '<w:noBreakHyphen/>',
  '<w:lastRenderedPageBreak/>',
];

/** A random DOCX: 3 to 27 blocks of paragraphs, lists, tables, notes, links, pictures, boxes. */
export function randomDocx(seed: number): Uint8Array {
  const random = randomSource(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (probability: number) => random() < probability;
  const count = (below: number) => Math.floor(random() * below);
  const words = () =>
    Array.from({ length: 1 + count(3) }, () => pick(chance(0.9) ? WORDS : MORE_WORDS)).join(
      chance(0.8) ? ' ' : '',
    );
  const textRun = () =>
    run(words(), {
      style: pick(RUN_STYLES),
      bold: chance(0.25),
      italic: chance(0.3),
      strike: chance(0.05),
      underline: chance(0.05),
      verticalAlign: chance(0.1) ? pick(['superscript', 'subscript'] as const) : undefined,
    });
  const runs = (most: number) => Array.from({ length: 1 + count(most) }, textRun).join('');

  // Inline content, by weight. Links in links and check boxes make mammoth convert the document.
  const inline: Array<[number, (inBox: boolean) => string]> = [
    [45, () => textRun()],
    [5, () => `<w:hyperlink r:id="${pick(LINK_TARGETS)}">${runs(2)}</w:hyperlink>`],
    [1, () => `<w:hyperlink r:id="rIdLink1" w:tgtFrame="_blank">${runs(1)}</w:hyperlink>`],
    [1, () => `<w:hyperlink r:id="rIdLink2" w:anchor="part">${runs(1)}</w:hyperlink>`],
    [2, () => `<w:hyperlink w:anchor="_Toc1">${runs(1)}</w:hyperlink>`],
    [
      2,
      () => {
        // A bookmark in a link: LibreOffice writes one for each link target it imports.
        const parts = [runs(1), '<w:bookmarkStart w:id="3" w:name="inside"/>', runs(1)];
        if (chance(0.5)) parts.reverse();
        return `<w:hyperlink r:id="${pick(LINK_TARGETS)}">${parts.join('')}</w:hyperlink>`;
      },
    ],
    [4, () => field(pick(FIELDS), [runs(2)])],
    [2, () => pick(['<w:bookmarkStart w:id="1" w:name="mark"/>', '<w:bookmarkEnd w:id="1"/>'])],
    [3, () => `<w:ins w:id="2" w:author="A">${runs(1)}</w:ins>`],
    [3, () => '<w:del w:id="3" w:author="A"><w:r><w:delText>gone</w:delText></w:r></w:del>'],
    [
      1,
      () => `<w:moveFrom w:id="4">${runs(1)}</w:moveFrom><w:moveTo w:id="5">${runs(1)}</w:moveTo>`,
    ],
    [2, () => `<w:smartTag w:element="place">${runs(1)}</w:smartTag>`],
    [2, () => `<w:sdt><w:sdtPr/><w:sdtContent>${runs(1)}</w:sdtContent></w:sdt>`],
    [3, () => `<w:r>${noteReference()}</w:r>`],
    [1, () => '<w:r><w:endnoteReference w:id="1"/></w:r>'],
    [3, () => picture()],
    [3, (inBox) => (inBox ? textRun() : textBox())],
    [
      1,
      () =>
        '<w:r><w:pict><v:shape><v:imagedata r:id="rIdImage2" o:title="VML"/></v:shape></w:pict></w:r>',
    ],
    [3, () => `<w:r>${pick(RUN_CONTENT)}<w:t>${escapeXml(words())}</w:t></w:r>`],
    [2, () => '<w:proofErr w:type="spellStart"/><w:commentRangeStart w:id="1"/>'],
    [
      3,
      () =>
        '<w:r><mc:AlternateContent><mc:Choice Requires="w14"><w:t>choice</w:t></mc:Choice><mc:Fallback><w:t>fallback</w:t></mc:Fallback></mc:AlternateContent></w:r>',
    ],
    [
      2,
      () =>
        `<w:r><w:rPr><w:b w:val="0"/><w:i w:val="false"/></w:rPr><w:t>${escapeXml(words())}</w:t></w:r>`,
    ],
    [
      0.05,
      () => field(FIELDS[0] as string, [`<w:hyperlink r:id="rIdLink1">${runs(1)}</w:hyperlink>`]),
    ],
    [
      0.05,
      () => `<w:hyperlink r:id="rIdLink1">${textRun()}<w:r>${noteReference()}</w:r></w:hyperlink>`,
    ],
    [
      0.05,
      () =>
        '<w:sdt><w:sdtPr><w14:checkbox/></w:sdtPr><w:sdtContent><w:r><w:t>☐</w:t></w:r></w:sdtContent></w:sdt>',
    ],
  ];
  const totalWeight = inline.reduce((sum, [weight]) => sum + weight, 0);
  const inlineContent = (inBox: boolean) => {
    let roll = random() * totalWeight;
    for (const [weight, make] of inline) {
      roll -= weight;
      if (roll < 0) return make(inBox);
    }
    return textRun();
  };

  const noteReference = () =>
    `<w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="${1 + count(3)}"/>`;
  const picture = () =>
    drawing(pick(IMAGE_TARGETS), {
      descr: pick([undefined, '', 'A picture', ' ']),
      title: pick([undefined, 'Title text']),
      linkId: chance(0.2) ? 'rIdLink1' : undefined,
    });
  const textBox = () => {
    const content = chance(0.2)
      ? table(1) + paragraph([textRun()], { numId: 1, level: 1 })
      : block(true) + (chance(0.5) ? block(true) : '');
    return `<w:r><w:pict><v:shape><v:textbox><w:txbxContent>${content}</w:txbxContent></v:textbox></v:shape></w:pict></w:r>`;
  };
  const block = (inBox: boolean): string => {
    const content = Array.from({ length: count(5) }, () => inlineContent(inBox));
    const listed = chance(0.3);
    const xml = paragraph(content, {
      style: pick(PARAGRAPH_STYLES),
      numId: listed ? pick([1, 1, 2, 3, 0, 9, 4]) : undefined,
      level: listed && chance(0.9) ? count(6) : undefined,
    });
    if (!chance(0.04)) return xml;
    // A deleted paragraph mark: the paragraph joins the next one.
    const deleted = '<w:rPr><w:del w:id="9" w:author="A"/></w:rPr>';
    return xml.startsWith('<w:p><w:pPr>')
      ? xml.replace('<w:p><w:pPr>', `<w:p><w:pPr>${deleted}`)
      : xml.replace('<w:p>', `<w:p><w:pPr>${deleted}</w:pPr>`);
  };
  const table = (depth: number): string => {
    const columns = 1 + count(3);
    const rows = Array.from({ length: 1 + count(3) }, () => {
      const properties = chance(0.3)
        ? '<w:trPr><w:tblHeader/></w:trPr>'
        : chance(0.05)
          ? '<w:trPr><w:del w:id="1" w:author="A"/></w:trPr>'
          : '';
      const cells = Array.from({ length: columns }, () => {
        const span = chance(0.15) ? '<w:gridSpan w:val="2"/>' : '';
        const merge = chance(0.2)
          ? pick(['<w:vMerge w:val="restart"/>', '<w:vMerge/>', '<w:vMerge w:val="continue"/>'])
          : '';
        const content =
          depth < 1 && chance(0.1)
            ? table(depth + 1) + block(false)
            : Array.from({ length: count(3) }, () => block(false)).join('');
        return `<w:tc><w:tcPr>${span}${merge}</w:tcPr>${content}</w:tc>`;
      });
      const bookmark = chance(0.03) ? '<w:bookmarkStart w:id="8" w:name="cell"/>' : '';
      return `<w:tr>${properties}${bookmark}${cells.join('')}</w:tr>`;
    });
    const between = chance(0.05) ? '<w:bookmarkStart w:id="8" w:name="row"/>' : '';
    return `<w:tbl><w:tblPr/><w:tblGrid/>${rows.join(between)}</w:tbl>`;
  };

  const blocks = Array.from({ length: 3 + count(25) }, () => {
    const roll = random();
    if (roll < 0.8) return block(false);
    if (roll < 0.88) return table(0);
    if (roll < 0.92)
      return `<w:sdt><w:sdtContent>${block(false)}${block(false)}</w:sdtContent></w:sdt>`;
    if (roll < 0.95) return '<w:bookmarkStart w:id="7" w:name="top"/>';
    return paragraph([]);
  });
  const note = (n: number) =>
    `<w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r>${run(` Note ${n} `)}${chance(0.3) ? run('italic', { italic: true }) : ''}</w:p>` +
    (chance(0.3) ? paragraph('second') : '') +
    (chance(0.2) ? paragraph([run('listed')], { numId: 1, level: 0 }) : '');
  return buildWordDocx({
    styles:
      WORD_STYLES +
      style(
        'numbering',
        'MyList',
        'My List',
        '<w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr>',
      ),
    body: blocks.join(''),
    numbering:
      listDefinition(1, ['bullet', 'decimal', 'bullet', 'lowerRoman', 'bullet', 'bullet']) +
      listDefinition(2, ['decimal', 'bullet', 'decimal']) +
      listDefinition(3, ['bullet'], { styleOfLevel: { 0: 'ListParagraph' } }) +
      '<w:abstractNum w:abstractNumId="40"><w:numStyleLink w:val="MyList"/></w:abstractNum>' +
      '<w:num w:numId="4"><w:abstractNumId w:val="40"/></w:num>',
    footnotes: [1, 2, 3].map((n) => `<w:footnote w:id="${n}">${note(n)}</w:footnote>`).join(''),
    endnotes: `<w:endnote w:id="1">${paragraph('An endnote.')}</w:endnote>`,
    relationships: [
      { id: 'rIdLink1', type: 'hyperlink', target: 'https://example.com/one', external: true },
      { id: 'rIdLink2', type: 'hyperlink', target: 'mailto:someone@example.com', external: true },
      { id: 'rIdJs', type: 'hyperlink', target: 'javascript:alert(1)', external: true },
      { id: 'rIdImage1', type: 'image', target: 'media/image1.png' },
      { id: 'rIdImage2', type: 'image', target: 'media/image2.png' },
      { id: 'rIdMissing', type: 'image', target: 'media/missing.png' },
      { id: 'rIdEmf', type: 'image', target: 'media/image3.emf' },
    ],
    files: {
      'word/media/image1.png': PNG,
      'word/media/image2.png': OTHER_PNG,
      'word/media/image3.emf': new Uint8Array([1, 0, 0, 0, 9, 9]),
    },
  });
}
