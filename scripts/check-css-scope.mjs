#!/usr/bin/env node
// One prefix rule for the web's CSS (docs/decisions/0325-scoped-css.md). src/web/styles.css is the base:
// design tokens, resets and element rules, no class rule at all. Every other .css file under src/web
// opens with a comment naming the class prefixes it owns, `/* scope: ticket- queue- */`; a prefix
// `ticket-` owns the class `ticket` and every class `ticket-…`. The check fails when
// - a file has no scope comment, or a prefix is not of the form `word-`;
// - a selector names no class of its own file (its rule would reach elements outside the file's components);
// - a selector names a class that no file owns (another file's class may be named, as the context of
//   one of this file's own: `.ticket-row .btn`);
// - two files own one prefix, or one file's prefix lies inside another's (`status-` and `status-page-`);
// - the base has a class rule (a feature's rule belongs in that feature's file).
// Run by `npm run lint`; prints each problem on a line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The base stylesheet: tokens, resets, element selectors; no classes. */
export const BASE = 'src/web/styles.css';

/**
 * Files not yet moved to the rule: each still defines classes outside any prefix of its own, or shares a
 * prefix with another file. The check skips them (and fails once one of them is scoped or gone, so the
 * list only shrinks). Empty when the move is done.
 */
export const NOT_YET_SCOPED = [];

const PREFIX = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-$/;

/** The prefixes a file declares in its first line, or null when it has none. */
export function declaredScope(css) {
  const first = css.trimStart().match(/^\/\*\s*scope:([^*]*)\*\//);
  if (!first) return null;
  return first[1].trim().split(/\s+/).filter(Boolean);
}

/** Whether the prefix `x-` owns the class: `x` itself or `x-…`. */
export function owns(prefix, className) {
  return className === prefix.slice(0, -1) || className.startsWith(prefix);
}

function lineAt(text, offset) {
  return text.slice(0, offset).split('\n').length;
}

/** Every selector of a stylesheet with its line: style rules at the top level and inside @media, @container, @supports, @layer. */
export function selectors(css) {
  // Comments become spaces of the same length, so offsets (and lines) stay right.
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  const found = [];
  let i = 0;
  const walk = (end) => {
    let start = i;
    while (i < end) {
      const ch = text[i];
      if (ch === '{') {
        const prelude = text.slice(start, i).trim();
        const preludeAt = start + text.slice(start, i).search(/\S/);
        const close = matching(text, i);
        if (prelude.startsWith('@')) {
          if (/^@(media|container|supports|layer)\b/.test(prelude)) {
            i += 1;
            walk(close);
          }
        } else {
          for (const selector of splitTopLevel(prelude)) {
            found.push({ selector: selector.trim(), line: lineAt(text, preludeAt) });
          }
        }
        i = close + 1;
        start = i;
      } else if (ch === ';' || ch === '}') {
        i += 1;
        start = i;
      } else {
        i += 1;
      }
    }
  };
  walk(text.length);
  return found;
}

function matching(text, open) {
  let depth = 0;
  for (let j = open; j < text.length; j += 1) {
    if (text[j] === '{') depth += 1;
    else if (text[j] === '}') {
      depth -= 1;
      if (depth === 0) return j;
    }
  }
  return text.length;
}

function splitTopLevel(list) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let j = 0; j < list.length; j += 1) {
    if (list[j] === '(' || list[j] === '[') depth += 1;
    else if (list[j] === ')' || list[j] === ']') depth -= 1;
    else if (list[j] === ',' && depth === 0) {
      parts.push(list.slice(start, j));
      start = j + 1;
    }
  }
  parts.push(list.slice(start));
  return parts;
}

/** The class names a selector mentions (attribute values and strings left out). */
export function classesOf(selector) {
  const bare = selector.replace(/'[^']*'|"[^"]*"/g, '').replace(/\[[^\]]*\]/g, '');
  return [...bare.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]);
}

/**
 * The problems of a set of stylesheets, given as [path relative to the repository, text] pairs.
 * `notYetScoped` lists the paths the rule skips for now.
 */
export function scopeProblems(files, { base = BASE, notYetScoped = NOT_YET_SCOPED } = {}) {
  const problems = [];
  const skipped = new Set(notYetScoped);
  const scopes = new Map();
  for (const [file, css] of files) {
    if (file === base || skipped.has(file)) continue;
    const scope = declaredScope(css);
    if (!scope || scope.length === 0) {
      problems.push(`${file}:1: no scope comment; open the file with /* scope: prefix- … */`);
      continue;
    }
    const bad = scope.filter((prefix) => !PREFIX.test(prefix));
    for (const prefix of bad) problems.push(`${file}:1: \`${prefix}\` is not a prefix of the form word-`);
    scopes.set(
      file,
      scope.filter((prefix) => PREFIX.test(prefix)),
    );
  }

  // No prefix owned twice, and none inside another file's.
  const all = [...scopes].flatMap(([file, prefixes]) => prefixes.map((prefix) => ({ file, prefix })));
  for (const [i, a] of all.entries()) {
    for (const b of all.slice(i + 1)) {
      if (a.file === b.file) continue;
      if (a.prefix === b.prefix) problems.push(`the prefix \`${a.prefix}\` is owned by both ${a.file} and ${b.file}`);
      else if (b.prefix.startsWith(a.prefix) || a.prefix.startsWith(b.prefix)) {
        const [outer, inner] = b.prefix.startsWith(a.prefix) ? [a, b] : [b, a];
        problems.push(`the prefix \`${inner.prefix}\` of ${inner.file} lies inside \`${outer.prefix}\` of ${outer.file}`);
      }
    }
  }
  const ownerOf = (className) => [...scopes].find(([, prefixes]) => prefixes.some((p) => owns(p, className)))?.[0];

  for (const [file, css] of files) {
    if (skipped.has(file)) continue;
    if (file === base) {
      for (const { selector, line } of selectors(css)) {
        if (classesOf(selector).length > 0) {
          problems.push(
            `${file}:${line}: \`${selector}\` is a class rule in the base; move it to the file of the feature or component that uses it`,
          );
        }
      }
      continue;
    }
    const prefixes = scopes.get(file);
    if (!prefixes) continue;
    for (const { selector, line } of selectors(css)) {
      const classes = classesOf(selector);
      if (!classes.some((c) => prefixes.some((p) => owns(p, c)))) {
        problems.push(`${file}:${line}: \`${selector}\` names no class of this file's scope (${prefixes.join(' ')})`);
        continue;
      }
      for (const c of classes) {
        if (!prefixes.some((p) => owns(p, c)) && !ownerOf(c)) {
          problems.push(`${file}:${line}: \`.${c}\` in \`${selector}\` belongs to no file's scope`);
        }
      }
    }
  }

  for (const file of notYetScoped) {
    const entry = files.find(([name]) => name === file);
    if (!entry) problems.push(`${file} is in NOT_YET_SCOPED but does not exist; remove it from the list`);
    else if (declaredScope(entry[1])) problems.push(`${file} declares a scope; remove it from NOT_YET_SCOPED`);
  }
  return problems;
}

function cssFiles(dir, files = []) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) cssFiles(full, files);
    else if (name.endsWith('.css')) files.push(full);
  }
  return files;
}

/** Reads the web's stylesheets and answers their problems. */
export function checkRepository(root = ROOT) {
  const files = cssFiles(path.join(root, 'src/web'))
    .sort()
    .map((file) => [path.relative(root, file).split(path.sep).join('/'), readFileSync(file, 'utf8')]);
  return scopeProblems(files);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkRepository();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`check-css-scope: ${problems.length} place(s) where the CSS breaks the one prefix rule`);
    process.exit(1);
  }
  console.log('check-css-scope: every stylesheet keeps to its own prefixes, and the base has no class rules');
}
