import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The palettes live in custom properties at the top of styles.css (decision 0240). A colour written
 * anywhere else would stay the same in both themes, so it is refused here.
 */
const WEB = path.dirname(fileURLToPath(import.meta.url));

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(full);
    return entry.name.endsWith('.css') ? [full] : [];
  });
}

const COLOUR = /#[0-9a-f]{3,8}\b|\b(?:rgb|rgba|hsl|hsla|hwb|lab|lch|oklab|oklch)\(|\b(?:white|black)\b(?!-space)/i;

/** The body of the first `selector {…}` block (no nested braces inside a palette). */
function block(css: string, selector: string): string {
  const start = css.indexOf(`${selector} {`);
  expect(start, selector).toBeGreaterThanOrEqual(0);
  const open = css.indexOf('{', start);
  return css.slice(open + 1, css.indexOf('}', open));
}

const declarations = (body: string) =>
  body
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean);

describe('theme palettes', () => {
  const styles = readFileSync(path.join(WEB, 'styles.css'), 'utf8');

  it('writes colours only as custom properties (a receipt printed black on white aside)', () => {
    const stray: string[] = [];
    for (const file of cssFiles(WEB)) {
      const css = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      const withoutPrint = css.replace(/@media print \{[\s\S]*$/, '');
      withoutPrint.split('\n').forEach((line, i) => {
        if (/^\s*--[\w-]+\s*:/.test(line)) return;
        if (COLOUR.test(line)) stray.push(`${path.relative(WEB, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(stray).toEqual([]);
  });

  it('gives the light palette the same values when chosen and when the system asks for it', () => {
    const chosen = declarations(block(styles, ":root[data-theme='light']"));
    const system = declarations(block(styles, ":root:not([data-theme='dark'])"));
    expect(chosen).toContain('color-scheme: light');
    expect(system).toEqual(chosen);
  });

  it('sets every colour property of the dark palette in the light one too', () => {
    const dark = declarations(block(styles, ':root'))
      .map((d) => d.split(':')[0]!)
      .filter(
        (name) =>
          name.startsWith('--') &&
          !/^--(radius|container|header-height|font|font-mono|radius-small|qr-bg|discord|telegram|brand-ink)$/.test(name),
      );
    const light = declarations(block(styles, ":root[data-theme='light']")).map((d) => d.split(':')[0]!);
    expect(dark.filter((name) => !light.includes(name))).toEqual([]);
  });
});
