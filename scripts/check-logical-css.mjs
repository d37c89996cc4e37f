#!/usr/bin/env node
// The web's CSS is written in logical properties, so a page laid out right to left (Arabic, Hebrew,
// Persian: `<html dir="rtl">`) mirrors by itself (docs/translating.md#right-to-left). Fails when a
// stylesheet under src/web uses a physical side: margin-, padding-, border-, scroll-margin- or
// scroll-padding-left/right, left/right as positions, a corner radius named by left/right,
// text-align or float or clear: left/right, or a four-value margin, padding or inset whose left and
// right differ. Write margin-inline-start/end, inset-inline-start/end, border-inline-start,
// text-align: start/end, `padding-block` + `padding-inline` instead. ALLOWED lists the few places where
// a physical side is meant. Run by `npm run lint`; prints each problem as file:line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CSS_ROOT = 'src/web';

/**
 * Physical sides that are meant: the file, a selector of the rule (as written, whitespace collapsed),
 * the property, and why.
 */
export const ALLOWED = [
  {
    file: 'src/web/styles.css',
    selector: "input[type='checkbox'][role='switch']::before",
    property: 'left',
    why: 'the knob of a switch starts at the left and slides right by transform: translateX(), which has no logical form; start and slide must stay on the same side',
  },
];

const LOGICAL = {
  'margin-left': 'margin-inline-start',
  'margin-right': 'margin-inline-end',
  'padding-left': 'padding-inline-start',
  'padding-right': 'padding-inline-end',
  'scroll-margin-left': 'scroll-margin-inline-start',
  'scroll-margin-right': 'scroll-margin-inline-end',
  'scroll-padding-left': 'scroll-padding-inline-start',
  'scroll-padding-right': 'scroll-padding-inline-end',
  'border-left': 'border-inline-start',
  'border-right': 'border-inline-end',
  'border-left-width': 'border-inline-start-width',
  'border-right-width': 'border-inline-end-width',
  'border-left-style': 'border-inline-start-style',
  'border-right-style': 'border-inline-end-style',
  'border-left-color': 'border-inline-start-color',
  'border-right-color': 'border-inline-end-color',
  'border-top-left-radius': 'border-start-start-radius',
  'border-top-right-radius': 'border-start-end-radius',
  'border-bottom-left-radius': 'border-end-start-radius',
  'border-bottom-right-radius': 'border-end-end-radius',
  left: 'inset-inline-start',
  right: 'inset-inline-end',
};
const SIDE_VALUES = new Set(['text-align', 'text-align-last', 'float', 'clear']);
const FOUR_SIDED = new Set(['margin', 'padding', 'inset', 'scroll-margin', 'scroll-padding']);

/** The words of a value at the top level (a calc() or var() stays one word). */
function words(value) {
  const found = [];
  let depth = 0;
  let current = '';
  for (const ch of value.trim()) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (/\s/.test(ch) && depth === 0) {
      if (current) found.push(current);
      current = '';
    } else current += ch;
  }
  if (current) found.push(current);
  return found;
}

/** The declarations of a stylesheet: { selector, property, value, line }, inside rules at any depth of @media, @supports…. */
export function declarations(css) {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  const found = [];
  const stack = [];
  let start = 0;
  const lineAt = (offset) => text.slice(0, offset).split('\n').length;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '{') {
      stack.push(text.slice(start, i).trim().replace(/\s+/g, ' '));
      start = i + 1;
    } else if (ch === '}' || ch === ';') {
      const chunk = text.slice(start, i);
      const selector = stack.at(-1);
      const m = chunk.match(/^\s*([a-zA-Z-]+)\s*:([\s\S]*)$/);
      if (m && selector !== undefined && !selector.startsWith('@')) {
        const offset = start + chunk.search(/\S/);
        found.push({ selector, property: m[1].toLowerCase(), value: m[2].trim(), line: lineAt(offset) });
      }
      if (ch === '}') stack.pop();
      start = i + 1;
    }
  }
  return found;
}

/** What is physical in one declaration, with its logical form, or null. */
export function physical({ property, value }) {
  if (property in LOGICAL) return `${property} is physical; write ${LOGICAL[property]}`;
  const bare = value
    .replace(/\s*!important$/, '')
    .trim()
    .toLowerCase();
  if (SIDE_VALUES.has(property) && (bare === 'left' || bare === 'right')) {
    return (
      `${property}: ${bare} is physical; write ${property}: ${bare === 'left' ? 'start' : 'end'}` +
      (property === 'text-align' || property === 'text-align-last' ? '' : ` (or inline-${bare === 'left' ? 'start' : 'end'})`)
    );
  }
  if (FOUR_SIDED.has(property)) {
    const parts = words(bare);
    if (parts.length === 4 && parts[1] !== parts[3]) {
      return `${property}: ${value} sets left and right apart; write ${property}-block: ${parts[0]} ${parts[2]}; ${property}-inline: ${parts[3]} ${parts[1]}`;
    }
  }
  return null;
}

/** The problems of a set of stylesheets, given as [path relative to the repository, text] pairs. */
export function logicalProblems(files, { allowed = ALLOWED } = {}) {
  const problems = [];
  const used = new Set();
  for (const [file, css] of files) {
    for (const declaration of declarations(css)) {
      const problem = physical(declaration);
      if (!problem) continue;
      const allowance = allowed.find(
        (a) => a.file === file && a.property === declaration.property && declaration.selector.split(/\s*,\s*/).includes(a.selector),
      );
      if (allowance) {
        used.add(allowance);
        continue;
      }
      problems.push(`${file}:${declaration.line}: ${problem} (docs/translating.md#right-to-left)`);
    }
  }
  const seen = new Set(files.map(([file]) => file));
  for (const allowance of allowed) {
    if (!used.has(allowance) && seen.has(allowance.file)) {
      problems.push(
        `${allowance.file}: the allowance for ${allowance.property} in ${allowance.selector} matches nothing; remove it from ALLOWED`,
      );
    }
  }
  return problems;
}

function walk(dir, files = []) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, files);
    else if (name.endsWith('.css')) files.push(full);
  }
  return files;
}

export function checkRepository(root = ROOT) {
  const files = walk(path.join(root, CSS_ROOT))
    .sort()
    .map((full) => [path.relative(root, full).split(path.sep).join('/'), readFileSync(full, 'utf8')]);
  return logicalProblems(files);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkRepository();
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    process.exitCode = 1;
  } else {
    console.log('check-logical-css: every stylesheet under src/web uses logical sides (inline-start/end), bar the allowed ones');
  }
}
