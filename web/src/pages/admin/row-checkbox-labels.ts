import { useEffect, type RefObject } from 'react';

/** react-admin's row checkboxes (DatagridRow: `<Checkbox aria-label>` on the MUI root). */
const ROW_CHECKBOX = '.select-item[aria-label]';

/** Moves each row checkbox's name from its wrapper onto its <input> (see the hook). */
function labelRowCheckboxes(container: ParentNode): void {
  for (const wrapper of container.querySelectorAll<HTMLElement>(ROW_CHECKBOX)) {
    const input = wrapper.querySelector('input');
    const label = wrapper.getAttribute('aria-label');
    if (!input || !label) continue;
    input.setAttribute('aria-label', label);
    wrapper.removeAttribute('aria-label');
  }
}

/**
 * react-admin 5.15 with Material UI 9 puts the "Select this row" name on the checkbox's
 * <span> wrapper, where no role allows it, and leaves the <input> itself unnamed (axe:
 * aria-prohibited-attr and label). Until react-admin passes it to the input, this moves it
 * there whenever rows are drawn, so screen readers announce each row's checkbox.
 */
export function useRowCheckboxLabels(container: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = container.current;
    if (!root) return;
    labelRowCheckboxes(root);
    const observer = new MutationObserver(() => labelRowCheckboxes(root));
    observer.observe(root, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-label'],
    });
    return () => observer.disconnect();
  }, [container]);
}
