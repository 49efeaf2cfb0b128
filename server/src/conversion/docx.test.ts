import { describe, expect, it } from 'vitest';
import { styleMapFor } from './docx-mammoth.ts';

describe('the DOCX style map', () => {
  it('keeps only the lines for styles the document defines, by name (any case) or id', () => {
    const styles = `<w:styles>
      <w:style w:type="character" w:styleId="Emphasis"><w:name w:val="Emphasis"/></w:style>
      <w:style w:type="paragraph" w:styleId="Quotations"><w:name w:val="quotations"/></w:style>
    </w:styles>`;
    expect(styleMapFor(styles)).toEqual([
      "r[style-name='Emphasis'] => em",
      'r.Emphasis => em',
      "p[style-name='Quotations'] => blockquote > p:fresh",
    ]);
  });

  it('keeps every line when the document has no styles part', () => {
    expect(styleMapFor(null).length).toBeGreaterThan(10);
  });
});
