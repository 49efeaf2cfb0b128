import { describe, expect, it } from 'vitest';
import { ConversionError } from './errors.ts';
import { defaultImageUrl } from './images.ts';
import { convertRtf } from './rtf.ts';
import { assertSafeHtml } from './test-factories.ts';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** RTF source → bytes, one byte per character (as RTF files are: 7-bit text with escapes). */
function bytesOf(source: string): Uint8Array {
  return new Uint8Array(Buffer.from(source, 'latin1'));
}

async function convert(source: string) {
  const result = await convertRtf(bytesOf(source), defaultImageUrl);
  assertSafeHtml(result.html);
  return { ...result, body: result.html.replace(/ id="b-[0-9a-f]{10}-\d+"/g, '') };
}

const WORD_HEADER = String.raw`{\rtf1\adeflang1025\ansi\ansicpg1252\uc1\adeff31507\deff0\stshfdbch31505
{\fonttbl{\f0\fbidi \froman\fcharset0\fprq2{\*\panose 02020603050405020304}Times New Roman;}
{\f3\fbidi \froman\fcharset2\fprq2{\*\panose 05050102010706020507}Symbol;}}
{\colortbl;\red0\green0\blue0;\red0\green0\blue255;}
{\*\defchp \f31506\fs22 }{\*\defpap \ql \li0\ri0\sa200\sl276\slmult1 }
{\stylesheet{\ql \li0\ri0\sa200\widctlpar\aspalpha\aspnum\faauto\adjustright\rin0\lin0\itap0 \rtlch\fcs1 \af0\afs22 \ltrch\fcs0 \f31506\fs22\lang1033 \snext0 \sqformat \spriority0 Normal;}
{\s1\ql \li0\ri0\sb480\keepn\widctlpar\outlinelevel0\adjustright \rtlch\fcs1 \ab\af0\afs28 \ltrch\fcs0 \b\fs28 \sbasedon0 \snext0 \slink15 \sqformat \spriority9 heading 1;}
{\s2\ql \li0\ri0\sb200\keepn\widctlpar\adjustright \rtlch\fcs1 \ab\af0\afs26 \ltrch\fcs0 \b\fs26 \sbasedon0 \snext0 \sqformat heading 2;}
{\s30\ql \li720\ri720\widctlpar \rtlch\fcs1 \ai\af0 \ltrch\fcs0 \i \sbasedon0 \snext0 \sqformat Quote;}
{\*\cs10 \additive \ssemihidden \sunhideused \spriority1 Default Paragraph Font;}
{\*\cs15 \additive \rtlch\fcs1 \ab\af0 \ltrch\fcs0 \b \sbasedon10 \slink1 \slocked Heading 1 Char;}
{\*\cs16 \additive \sbasedon10 \sqformat \spriority20 Emphasis;}
{\*\ts11\tsrowd\trftsWidthB3\trpaddl108\trpaddr108 \ql \li0\ri0\sa200 \snext11 \ssemihidden Normal Table;}}
{\*\listtable{\list\listtemplateid-1\listhybrid{\listlevel\levelnfc23\levelnfcn23\leveljc0\leveljcn0\levelfollow0\levelstartat1\levelspace360\levelindent0{\leveltext\leveltemplateid67698689\'01\u-3913 ?;}{\levelnumbers;}\f3\fbias0 \fi-360\li720\lin720 }
{\listlevel\levelnfc23\levelnfcn23\leveljc0\leveljcn0\levelfollow0\levelstartat1{\leveltext\'01o;}{\levelnumbers;}\fi-360\li1440\lin1440 }{\listname ;}\listid1001}
{\list\listtemplateid-2\listhybrid{\listlevel\levelnfc0\levelnfcn0\leveljc0\leveljcn0\levelfollow0\levelstartat1{\leveltext\'02\'00.;}{\levelnumbers\'01;}\fi-360\li720\lin720 }{\listname ;}\listid1002}}
{\*\listoverridetable{\listoverride\listid1001\listoverridecount0\ls1}{\listoverride\listid1002\listoverridecount0\ls2}}
{\*\rsidtbl \rsid1800000\rsid2300000}{\mmathPr\mmathFont34\mbrkBin0}
{\info{\title Working title}{\author Someone}{\operator Someone}{\creatim\yr2024\mo1\dy2\hr3\min4}{\nofpages1}}
\paperw12240\paperh15840\margl1440\margr1440\ltrsect
{\header \pard\plain \s20 {Running head}\par}
`;

const WORD_THEME = String.raw`{\*\themedata 504b030414000600080000002100e9de0fbfff0000001c020000130000005b436f6e74656e745f54797065735d2e786d6cac91cb4ec3301045f748fc83e52d4a}
{\*\colorschememapping 3c3f786d6c2076657273696f6e3d22312e30}
{\*\latentstyles\lsdstimax376\lsdlockeddef0{\lsdlockedexcept \lsdqformat1 \lsdpriority0 \lsdlocked0 Normal;}}
{\*\datastore 0105000002000000180000004d73786d6c322e534158584d4c5265616465722e362e30}}`;

describe('RTF as Word writes it', () => {
  const document =
    WORD_HEADER +
    String.raw`
\pard\plain \ltrpar\s1\ql \li0\ri0\sb480\keepn\widctlpar\wrapdefault\outlinelevel0\rin0\lin0\itap0\pararsid1800000 \rtlch\fcs1 \ab\af0\afs28 \ltrch\fcs0 \b\fs28\insrsid1800000 {\*\bkmkstart _Toc1}Chapter One{\*\bkmkend _Toc1}
\par \pard\plain \ltrpar\ql \li0\ri0\sa200\widctlpar\itap0 \rtlch\fcs1 \af0 \ltrch\fcs0 \f0\fs22\insrsid1800000 {\rtlch\fcs1 \af0 \ltrch\fcs0 \insrsid2300000 The sea was }{\rtlch\fcs1 \af0 \ltrch\fcs0 \cs16\i\insrsid2300000 very}{\rtlch\fcs1 \af0 \ltrch\fcs0 \insrsid2300000  calm and }{\rtlch\fcs1 \ab\af0 \ltrch\fcs0 \b\insrsid2300000 bright}{\insrsid2300000 .\par }
{\listtext\pard\plain\ltrpar \rtlch\fcs1 \af0 \ltrch\fcs0 \f3\insrsid2300000 \loch\af3\hich\af3\dbch\af0\hich\f3 \'b7\tab}\pard\plain \ltrpar\ql \fi-360\li720\ri0\widctlpar\ls1\adjustright\rin0\lin720\itap0\pararsid2300000 {\insrsid2300000 Rope\par }
{\listtext\pard\plain\ltrpar \f3 o\tab}\pard\plain \ltrpar\ql \fi-360\li1440\ri0\widctlpar\ls1\ilvl1\adjustright\rin0\lin1440\itap0 {\insrsid2300000 Tarred\par }
{\listtext\pard\plain\ltrpar \f3 \'b7\tab}\pard\plain \ltrpar\ql \fi-360\li720\ri0\widctlpar\ls1\adjustright\rin0\lin720\itap0 {\insrsid2300000 Lamp oil\par }
{\listtext\pard\plain\ltrpar 1.\tab}\pard\plain \ltrpar\ql \fi-360\li720\ri0\widctlpar\ls2\adjustright\rin0\lin720\itap0 {\insrsid2300000 First\par }
{\listtext\pard\plain\ltrpar 2.\tab}\pard\plain \ltrpar\ql \fi-360\li720\ri0\widctlpar\ls2\adjustright\rin0\lin720\itap0 {\insrsid2300000 Second\par }
\pard\plain \ltrpar\s30\ql \li720\ri720\widctlpar\itap0 \rtlch\fcs1 \ai\af0 \ltrch\fcs0 \i\insrsid2300000 {A quoted line.\par}{Another one.\par}
\pard\plain \ltrpar\s2\ql \keepn\widctlpar\itap0 \b\fs26 {Aftermath\par}
\pard\plain \ltrpar\ql \widctlpar\itap0 {The end.}{\insrsid1800000 
\par }` +
    WORD_THEME;

  it('reads headings, emphasis, lists and quotes, and skips the noise', async () => {
    const { body, toc, title } = await convert(document);
    expect(toc.map(({ level, text }) => ({ level, text }))).toEqual([
      { level: 1, text: 'Chapter One' },
      { level: 2, text: 'Aftermath' },
    ]);
    expect(body).toContain('<h1>Chapter One</h1>');
    expect(body).toContain('<p>The sea was <em>very</em> calm and <strong>bright</strong>.</p>');
    expect(body).toContain(
      '<ul><li><p>Rope</p><ul><li>Tarred</li></ul></li><li>Lamp oil</li></ul>\n<ol><li>First</li><li>Second</li></ol>',
    );
    // The Quote style is italic itself: that is its look, not emphasis.
    expect(body).toContain('<blockquote><p>A quoted line.</p><p>Another one.</p></blockquote>');
    expect(body).not.toMatch(/Running head|Someone|Normal Table|Emphasis|504b|·/);
    // With no Title-style paragraph, the document information's title is the title.
    expect(title).toBe('Working title');
  });
});

const LIBREOFFICE_HEADER = String.raw`{\rtf1\ansi\deff3\adeflang1025
{\fonttbl{\f0\froman\fprq2\fcharset0 Times New Roman;}{\f1\froman\fprq2\fcharset2 Symbol;}{\f3\froman\fprq2\fcharset0 Liberation Serif{\*\falt Times New Roman};}{\f4\froman\fprq2\fcharset204 PT Serif;}}
{\stylesheet{\s0\snext0\rtlch\af4\afs24 \ltrch\hich\af3\loch\f3\fs24 Normal;}
{\s1\snext22\ilvl0\outlinelevel0\fs31\b\f3 Heading 1;}
{\*\cs15\snext15\loch\i Emphasis;}
{\*\cs16\snext16\loch\b Strong Emphasis;}
{\s22\snext22\sb0\sa140\f3\fs24 Text Body;}
{\s26\snext22\qc\fs56\b\f3 Title;}
{\s27\snext27\li567\ri567\lin567\rin567\fi0\f3\fs24 Quotations;}
{\s28\snext28\fs20\f3 Footnote;}
}{\*\listtable{\list\listtemplateid1
{\listlevel\levelnfc255\leveljc0\levelstartat1\levelfollow2{\leveltext \'00;}{\levelnumbers;}\fi0\li0}\listid1}
}{\listoverridetable{\listoverride\listid1\listoverridecount0\ls1}}{\*\generator LibreOffice/7.4.7.2$Linux_X86_64}{\info{\title Metadata title}}
\sectd\sbknone\pgndec{\*\ftnsep\chftnsep}\pgndec
`;

describe('RTF as LibreOffice writes it', () => {
  const document = (paragraphs: string) => LIBREOFFICE_HEADER + paragraphs + '\n\\par }';
  const paragraph = (text: string, style = 22) =>
    String.raw`\pard\plain \s${style}\sb0\sa140\f3\fs24{\loch ` + text + '}\n\\par ';

  it('reads the title, numbered headings, emphasis styles and quotations', async () => {
    const result = await convert(
      document(
        String.raw`\pard\plain \s26\qc\fs56\b\f3{\loch The Book}
\par \pard\plain \s1\ilvl0\outlinelevel0\fs31\b\f3{\listtext\pard\plain \tab}\ls1 \li0\ri0{\loch Chapter 1}
\par ` +
          paragraph(
            String.raw`She said }{\loch\cs15\loch\i\loch not yet}{\loch  and }{\loch\cs15 styled}{\loch  and }{\loch\cs16\loch\b\loch strong}{\loch .`,
          ) +
          paragraph('A quotation.', 27) +
          paragraph('And its second paragraph.', 27) +
          paragraph('Back to prose.'),
      ),
    );
    expect(result.title).toBe('The Book');
    expect(result.toc.map((entry) => entry.text)).toEqual(['The Book', 'Chapter 1']);
    expect(result.body).toContain('<h1>The Book</h1>\n<h1>Chapter 1</h1>');
    expect(result.body).toContain(
      '<p>She said <em>not yet</em> and <em>styled</em> and <strong>strong</strong>.</p>',
    );
    expect(result.body).toContain(
      '<blockquote><p>A quotation.</p><p>And its second paragraph.</p></blockquote>\n<p>Back to prose.</p>',
    );
  });

  it('reads the footnote LibreOffice hides in {\\*\\footnote}', async () => {
    const { body, words } = await convert(
      document(
        paragraph(
          String.raw`The light was lit.}{{\super \loch \chftn{\*\footnote \chftn\pard\plain \s28\fs20\f3{\loch First lit in 1852.}
}}}{\loch  Then dark.`,
        ),
      ),
    );
    expect(body).toContain(
      '<p>The light was lit.<sup><a href="#fn-1" id="fnref-1" class="footnote-ref">1</a></sup> Then dark.</p>',
    );
    expect(body).toContain(
      '<section id="footnotes" class="footnotes"><ol><li id="fn-1"><p>First lit in 1852. <a href="#fnref-1" class="footnote-back"',
    );
    expect(words).toBe(10);
  });

  it('decodes text by the font’s character set', async () => {
    const { body } = await convert(
      document(
        paragraph(
          String.raw`caf\'e9 }{\f4\loch \'cf\'f0\'e8\'e2\'e5\'f2}{\loch  \u8220\'93quoted\u8221\'94`,
        ),
      ),
    );
    expect(body).toContain('<p>café Привет “quoted”</p>');
  });
});

describe('RTF text', () => {
  const minimal = (text: string) =>
    `{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Arial;}}\\pard ${text}\\par}`;

  it('skips the fallback of \\uN as \\ucN says, and joins surrogate pairs', async () => {
    const { body } = await convert(
      minimal(
        String.raw`\uc1\u233\'e9 \uc2\u8212\'97\'97 \uc0\u8230 {\uc3\u8226 ***}x \uc1\u-10179 ?\u-8704 ?! \u233 ?`,
      ),
    );
    expect(body).toContain('<p>é — …•x 😀! é</p>');
  });

  it('scopes italics and bold to their groups, and \\plain resets them', async () => {
    const { body } = await convert(
      minimal(
        String.raw`{\i one {\b two} three}\b four\b0  five \i six\plain  seven {\super 2}{\sub x}`,
      ),
    );
    expect(body).toContain(
      '<p><em>one <strong>two</strong> three</em><strong>four</strong> five <em>six</em> seven <sup>2</sup><sub>x</sub></p>',
    );
  });

  it('reads control symbols, line breaks and tabs; hidden text stays hidden', async () => {
    const { body } = await convert(
      minimal(String.raw`a\~b co\-op x\_y \{brace\} back\\slash\line next\tab tab{\v hidden}.`),
    );
    expect(body).toContain('<p>a\u00a0b coop x\u2011y {brace} back\\slash<br>next tab.</p>');
  });

  it('reads \\upr text once, drops tracked deletions, and ends a paragraph at \\sect', async () => {
    const { body } = await convert(
      minimal(String.raw`{\upr{Caf\'e9}{\*\ud{Caf\u233 e}}} kept{\deleted  gone}.\sect\sectd Next`),
    );
    expect(body).toContain('<p>Café kept.</p>\n<p>Next</p>');
  });

  it('keeps markup in the text as text', async () => {
    const { html } = await convert(
      minimal(String.raw`<script>alert(1)</script> <img src=x onerror=alert(1)>`),
    );
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&#x3C;script>alert(1)&#x3C;/script>');
  });

  it('decodes double-byte code pages', async () => {
    const { body } = await convert(
      String.raw`{\rtf1\ansi\ansicpg932\deff0{\fonttbl{\f0\fcharset128 MS Mincho;}}\pard \'82\'a0\'82\'a2 ok\par}`,
    );
    expect(body).toContain('<p>あい ok</p>');
  });

  it('reads old-style numbering (\\pn) as lists', async () => {
    const { body } = await convert(
      minimal(
        String.raw`\par{\pntext\f1\'b7\tab}{\*\pn\pnlvlblt\pnf1\pnindent0{\pntxtb\'b7}}\fi-720\li720 One\par{\pntext\f1\'b7\tab}Two\par\pard After`,
      ),
    );
    expect(body).toContain('<ul><li>One</li><li>Two</li></ul>\n<p>After</p>');
  });
});

describe('RTF structure', () => {
  const minimal = (text: string) => `{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Arial;}}${text}}`;

  it('reads tables, flattening nested ones', async () => {
    const { body } = await convert(
      minimal(
        String.raw`\pard Before\par
\trowd\trhdr\cellx2000\cellx4000\pard\intbl Tide\cell Height\cell\row
\trowd\cellx2000\cellx4000\pard\intbl High\cell\pard\intbl Five\par metres\cell\row
\pard\intbl\itap1 Outer\par
\pard\intbl\itap2 Inner A\nestcell Inner B\nestcell{\*\nesttableprops\trowd\cellx1000\cellx2000\nestrow}{\nonesttables\par}
\pard\intbl\itap1 \cell\row
\pard\plain After\par`,
      ),
    );
    expect(body).toContain(
      '<p>Before</p>\n<table><tbody><tr><th>Tide</th><th>Height</th></tr><tr><td>High</td><td><p>Five</p><p>metres</p></td></tr><tr><td><p>Outer</p><p>Inner A</p><p>Inner B</p></td></tr></tbody></table>\n<p>After</p>',
    );
  });

  it('reads both footnote forms, in order', async () => {
    const { body } = await convert(
      minimal(
        String.raw`\pard One.{\super\chftn}{\footnote\pard\plain {\super\chftn} Word's note.} Two.{\super\chftn{\*\footnote\pard\plain \chftn LibreOffice's note.}}\par`,
      ),
    );
    expect(body).toContain(
      '<p>One.<sup><a href="#fn-1" id="fnref-1" class="footnote-ref">1</a></sup> Two.<sup><a href="#fn-2" id="fnref-2" class="footnote-ref">2</a></sup></p>',
    );
    expect(body).toMatch(
      /<li id="fn-1"><p>Word's note\. <a[^>]*>↩<\/a><\/p><\/li><li id="fn-2"><p>LibreOffice's note\./,
    );
  });

  it('keeps PNG pictures, also given as \\bin, and marks metafiles', async () => {
    const hex = PNG.toString('hex').replace(/(.{64})/g, '$1\n');
    const { body, images } = await convert(
      minimal(
        String.raw`\pard {\*\shppict{\pict{\*\picprop{\sp{\sn wzDescription}{\sv A lighthouse}}}\picw1\pich1\pngblip
` +
          hex +
          String.raw`}}{\nonshppict{\pict\wmetafile8 0100090000}}\par
\pard {\pict\wmetafile8\picw1\pich1 010009000003}{\pict\emfblip 0100000064}After\par
\pard {\pict\pngblip\bin${PNG.length} ${PNG.toString('latin1')}}\par`,
      ),
    );
    expect(images).toHaveLength(1);
    const [image] = images;
    expect(image?.contentType).toBe('image/png');
    // The WMF fallback of the PNG (\nonshppict) is neither shown nor marked; the metafiles that
    // stand alone are marked where they stood (issue 10).
    const unshown =
      '<span class="missing-picture" role="img" aria-label="Picture not shown (its format cannot be shown in a browser)"></span>';
    expect(body).toContain(
      `<p><img src="/media/${image?.id}" alt="A lighthouse"></p>\n<p>${unshown}${unshown}After</p>`,
    );
    expect(body.match(/<img/g)).toHaveLength(2);
  });

  it('keeps HYPERLINK fields with a safe scheme, and the text of every field', async () => {
    const { body } = await convert(
      minimal(
        String.raw`\pard {\field{\*\fldinst {HYPERLINK "https://example.com/a?b=c" }}{\fldrslt {\ul\cf2 a link}}} and {\field{\*\fldinst HYPERLINK "javascript:alert(1)"}{\fldrslt bad}} and {\field{\*\fldinst {PAGE}}{\fldrslt 7}} and {\field{\*\fldinst HYPERLINK \\l "_Toc1"}{\fldrslt inside}}\par`,
      ),
    );
    expect(body).toContain(
      '<p><a href="https://example.com/a?b=c" rel="nofollow noopener noreferrer">a link</a> and bad and 7 and inside</p>',
    );
    expect(body).not.toContain('javascript');
  });
});

describe('damaged RTF', () => {
  it('refuses what is not RTF', async () => {
    const error = await convertRtf(bytesOf('{\\rtx1 no}'), defaultImageUrl).catch((e) => e);
    expect(error).toBeInstanceOf(ConversionError);
    expect(error).toMatchObject({
      code: 'corrupt',
      message: expect.stringContaining('not a valid RTF document'),
    });
  });

  it('reads a file cut short, or with a stray closing brace, as far as it goes', async () => {
    const cut = await convert('{\\rtf1\\ansi {\\fonttbl{\\f0 Arial;}}\\pard Hello {\\i world');
    expect(cut.body).toContain('<p>Hello <em>world</em></p>');
    const stray = await convert('{\\rtf1\\ansi \\pard First\\par}} Second\\par}');
    expect(stray.body).toContain('<p>First</p>');
    expect(stray.body).not.toContain('Second');
  });

  it('survives garbage without throwing', async () => {
    const garbage = Array.from({ length: 4000 }, (_, i) => String.fromCharCode((i * 7919) % 256));
    const result = await convert(`{\\rtf1 ${garbage.join('')}`);
    expect(typeof result.html).toBe('string');
  });

  it('refuses groups nested 2000 deep, without overflowing the stack', async () => {
    const deep = `{\\rtf1 ${'{'.repeat(2000)}x${'}'.repeat(2000)}}`;
    await expect(convertRtf(bytesOf(deep), defaultImageUrl)).rejects.toMatchObject({
      code: 'corrupt',
    });
  });

  it('reads a paragraph of 200 000 formatted runs', async () => {
    const runs = Array.from({ length: 100_000 }, () => '{\\i a}{\\b b}').join('');
    const { words } = await convert(`{\\rtf1 \\pard ${runs}\\par}`);
    expect(words).toBe(1);
  });
});
