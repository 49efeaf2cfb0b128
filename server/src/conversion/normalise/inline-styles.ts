import type { Element, ElementContent, Root } from 'hast';
import { classesOf, element, stringProperty, textOf } from './hast.ts';

// Some HTML exports (Google Docs above all) mark italics and bold with CSS, on a <span> or through
// a class defined in a <style> block, instead of <em> and <strong>. Styles are never copied into
// the output; these few are read and turned into the elements they mean.

export interface InlineStyle {
  italic: boolean;
  bold: boolean;
  superscript: boolean;
  subscript: boolean;
}

const SIMPLE_CLASS_RULE = /((?:\.[\w-]+\s*,\s*)*\.[\w-]+)\s*\{([^{}]*)\}/g;

/** Class name → style, from the simple `.name { … }` rules of the document's style sheets. */
export function readClassStyles(root: Root): Map<string, InlineStyle> {
  const styles = new Map<string, InlineStyle>();
  const walk = (node: Root | Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tagName === 'style') {
        for (const [, selectors = '', declarations = ''] of textOf(child).matchAll(
          SIMPLE_CLASS_RULE,
        )) {
          const style = parseDeclarations(declarations);
          if (style === null) continue;
          for (const selector of selectors.split(',')) styles.set(selector.trim().slice(1), style);
        }
      } else {
        walk(child);
      }
    }
  };
  walk(root);
  return styles;
}

/** What an element's `style` attribute and classes say about italics, bold and raised text. */
export function inlineStyleOf(
  node: Element,
  classStyles: ReadonlyMap<string, InlineStyle>,
): InlineStyle | null {
  let result: InlineStyle | null = null;
  const merge = (style: InlineStyle | null | undefined) => {
    if (!style) return;
    result = {
      italic: (result?.italic ?? false) || style.italic,
      bold: (result?.bold ?? false) || style.bold,
      superscript: (result?.superscript ?? false) || style.superscript,
      subscript: (result?.subscript ?? false) || style.subscript,
    };
  };
  if (classStyles.size > 0) for (const name of classesOf(node)) merge(classStyles.get(name));
  const inline = stringProperty(node, 'style');
  if (inline) merge(parseDeclarations(inline));
  return result;
}

/** Wraps content in the elements the style means. */
export function applyInlineStyle(content: ElementContent[], style: InlineStyle): ElementContent[] {
  let wrapped = content;
  if (style.italic) wrapped = [element('em', {}, wrapped)];
  if (style.bold) wrapped = [element('strong', {}, wrapped)];
  if (style.superscript) wrapped = [element('sup', {}, wrapped)];
  else if (style.subscript) wrapped = [element('sub', {}, wrapped)];
  return wrapped;
}

function parseDeclarations(declarations: string): InlineStyle | null {
  const style: InlineStyle = { italic: false, bold: false, superscript: false, subscript: false };
  for (const declaration of declarations.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (property === 'font-style')
      style.italic = value.startsWith('italic') || value.startsWith('oblique');
    if (property === 'font-weight')
      style.bold = value.startsWith('bold') || /^[6-9]00\b/.test(value);
    if (property === 'vertical-align') {
      style.superscript = value === 'super';
      style.subscript = value === 'sub';
    }
  }
  return style.italic || style.bold || style.superscript || style.subscript ? style : null;
}
