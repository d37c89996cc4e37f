import type { Page } from '@playwright/test';

/**
 * Layout checks for text in other languages and directions (docs/translating.md): a page laid out right
 * to left, or in the pseudo-locale's longer text, must not scroll sideways, and its text must neither
 * overlap other text nor be cut off. One call reads the laid-out page once, in the browser:
 *
 * - **sideways scroll**: the document is wider than the window;
 * - **overlap**: the boxes of two visible texts (a line of a text node, or a form field) of different
 *   elements, one not inside the other, cross by more than a sliver;
 * - **clipped**: an element with `overflow` hidden or clipped (or an ellipsis) whose content is wider or
 *   taller than its box, so part of its text is not shown; or a text that starts or ends outside the
 *   window.
 *
 * What is read: the texts inside `roots` (by default the header, the main headings, buttons, links
 * drawn as buttons, labels and form fields, and the footer). Text nobody sees is skipped: hidden, of zero
 * opacity, inside a closed `<details>` or `aria-hidden`, or visually hidden (a 1 px box that clips its content, for screen
 * readers).
 */

export const DEFAULT_ROOTS = [
  'header',
  'main h1',
  'main h2',
  'main h3',
  'main button',
  'main .btn',
  'main label',
  'main input',
  'main select',
  'main textarea',
  'footer',
];

export interface LayoutOptions {
  /** CSS selectors of the elements whose text is checked (each with everything inside it). */
  roots?: string[];
  /** Selectors of elements left out, with everything inside them. */
  ignore?: string[];
  /** How far two boxes may cross before it counts, in px (antialiasing, tall glyphs of a tight line). */
  tolerance?: number;
}

/** The problems of the page as laid out now, one line each; an empty list when there are none. */
export async function layoutProblems(page: Page, options: LayoutOptions = {}): Promise<string[]> {
  return page.evaluate(
    ({ roots, ignore, tolerance }) => {
      const problems: string[] = [];
      const doc = document.documentElement;
      if (doc.scrollWidth > doc.clientWidth + 1) {
        problems.push(`the page scrolls sideways: ${doc.scrollWidth} px of content in ${doc.clientWidth} px`);
      }

      const describe = (el: Element, text?: string) => {
        const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
        const words = (text ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
        return `<${el.tagName.toLowerCase()}${cls}>${words ? ` "${words}"` : ''}`;
      };

      const hiddenCache = new Map<Element, boolean>();
      /** Whether nobody sees the element: not rendered, invisible, transparent, aria-hidden, ignored or visually hidden. */
      const unseen = (el: Element | null): boolean => {
        if (!el || el === document.body) return false;
        const known = hiddenCache.get(el);
        if (known !== undefined) return known;
        const style = getComputedStyle(el);
        const rect = el.getBoundingClientRect();
        const clipsContent = style.overflow !== 'visible' || style.clip !== 'auto' || style.clipPath !== 'none';
        const result =
          // Inside a closed <details> (its content is laid out but skipped) or otherwise not rendered.
          !el.checkVisibility({ contentVisibilityAuto: true, opacityProperty: true, visibilityProperty: true }) ||
          style.display === 'none' ||
          style.visibility === 'hidden' ||
          style.visibility === 'collapse' ||
          Number(style.opacity) === 0 ||
          el.getAttribute('aria-hidden') === 'true' ||
          ignore.some((selector) => el.matches(selector)) ||
          (clipsContent && (rect.width <= 1 || rect.height <= 1)) ||
          unseen(el.parentElement);
        hiddenCache.set(el, result);
        return result;
      };

      /** The part of a rect its ancestors that clip or scroll their content let show (null when none of it shows). */
      const shown = (el: Element, rect: DOMRect): DOMRect | null => {
        let left = rect.left;
        let right = rect.right;
        let top = rect.top;
        let bottom = rect.bottom;
        for (let up = el.parentElement; up && up !== document.body && up !== doc; up = up.parentElement) {
          const style = getComputedStyle(up);
          if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
          const clip = up.getBoundingClientRect();
          if (style.overflowX !== 'visible') {
            left = Math.max(left, clip.left);
            right = Math.min(right, clip.right);
          }
          if (style.overflowY !== 'visible') {
            top = Math.max(top, clip.top);
            bottom = Math.min(bottom, clip.bottom);
          }
        }
        return right - left < 1 || bottom - top < 1 ? null : new DOMRect(left, top, right - left, bottom - top);
      };

      interface Box {
        owner: Element;
        label: string;
        rect: DOMRect;
      }
      const boxes: Box[] = [];
      const seenOwners = new Set<Element>();
      const scopes = roots.flatMap((selector) => [...document.querySelectorAll(selector)]);
      const inScope = (el: Element) => scopes.some((root) => root.contains(el));

      for (const root of scopes) {
        // Form fields: their whole box.
        const fields = root.matches('input, select, textarea') ? [root] : [...root.querySelectorAll('input, select, textarea')];
        for (const field of fields) {
          if (seenOwners.has(field) || unseen(field)) continue;
          const type = field.getAttribute('type');
          if (type === 'hidden' || type === 'checkbox' || type === 'radio') continue;
          seenOwners.add(field);
          const rect = shown(field, field.getBoundingClientRect());
          if (rect) boxes.push({ owner: field, label: describe(field, (field as HTMLInputElement).placeholder), rect });
        }
        // Texts: each line of each text node.
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const owner = node.parentElement;
          if (!owner || !node.textContent?.trim() || unseen(owner)) continue;
          if (owner.closest('select, option, svg, script, style, noscript')) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const line of range.getClientRects()) {
            const rect = line.width >= 1 && line.height >= 1 ? shown(owner, line) : null;
            if (rect) boxes.push({ owner, label: describe(owner, node.textContent), rect });
          }
        }
      }

      // Overlaps between boxes of different elements, neither inside the other.
      const reported = new Set<string>();
      for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) {
          const a = boxes[i]!;
          const b = boxes[j]!;
          if (a.owner === b.owner || a.owner.contains(b.owner) || b.owner.contains(a.owner)) continue;
          const width = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
          const height = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
          // Text boxes of a tight line-height reach into the next line by a few px: only a real crossing counts.
          const minHeight = Math.min(a.rect.height, b.rect.height);
          if (width <= tolerance || height <= Math.max(tolerance, minHeight * 0.3)) continue;
          const key = `${a.label}|${b.label}`;
          if (reported.has(key)) continue;
          reported.add(key);
          problems.push(`${a.label} overlaps ${b.label} by ${Math.round(width)}×${Math.round(height)} px`);
        }
      }

      // Text outside the window.
      const viewport = doc.clientWidth;
      for (const box of boxes) {
        if (box.rect.left < -tolerance || box.rect.right > viewport + tolerance) {
          const key = `out|${box.label}`;
          if (reported.has(key)) continue;
          reported.add(key);
          problems.push(
            `${box.label} is outside the window (${Math.round(box.rect.left)}…${Math.round(box.rect.right)} px of ${viewport})`,
          );
        }
      }

      // Clipped content: elements that cut off what overflows them, around a text that is checked.
      const owners = new Set(boxes.map((box) => box.owner));
      const clippers = new Set<Element>();
      for (const owner of owners) {
        for (let el: Element | null = owner; el && el !== document.body; el = el.parentElement) {
          if (!inScope(el)) break;
          clippers.add(el);
        }
      }
      for (const el of clippers) {
        if (unseen(el)) continue;
        const style = getComputedStyle(el);
        const hides = (value: string) => value === 'hidden' || value === 'clip';
        const clipsX = hides(style.overflowX) || style.textOverflow === 'ellipsis';
        const clipsY = hides(style.overflowY);
        if (!clipsX && !clipsY) continue;
        const over = (clipsX && el.scrollWidth > el.clientWidth + 1) || (clipsY && el.scrollHeight > el.clientHeight + 1);
        if (!over || !el.textContent?.trim()) continue;
        problems.push(
          `${describe(el)} is clipped: content ${el.scrollWidth}×${el.scrollHeight} px in a box of ${el.clientWidth}×${el.clientHeight} px`,
        );
      }
      return problems;
    },
    { roots: options.roots ?? DEFAULT_ROOTS, ignore: options.ignore ?? [], tolerance: options.tolerance ?? 2 },
  );
}

/**
 * On a phone the header's navigation folds behind its Menu button: opens it, reads the site header's
 * text with the menu open (the open menu lies over the page, so only the header itself), and closes it
 * again. No problems when the header has no folded menu.
 */
export async function openMenuProblems(page: Page, options: LayoutOptions = {}): Promise<string[]> {
  const toggle = page.getByRole('banner').locator('button[aria-controls][aria-expanded="false"]').first();
  if (!(await toggle.isVisible())) return [];
  await toggle.click();
  await page.getByRole('banner').locator('button[aria-controls][aria-expanded="true"]').first().waitFor();
  const problems = await layoutProblems(page, { ...options, roots: options.roots ?? ['header.site-header'] });
  await page.getByRole('banner').locator('button[aria-controls][aria-expanded="true"]').first().click();
  return problems.map((problem) => `menu open: ${problem}`);
}
