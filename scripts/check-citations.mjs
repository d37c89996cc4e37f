#!/usr/bin/env node
// Citations in code must point inside the repository (docs/architecture.md#testing). Fails when a file
// under src/, e2e/, test/, bench/ or scripts/ cites a document that is not in the repository (the
// design or specification notes the project started from, "spec section N", "issue N"), a decision
// number without a file in docs/decisions/, or a docs/ file or heading anchor that does not exist.
// Run by `npm run lint`; `node scripts/check-citations.mjs` prints each problem as file:line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCANNED_DIRS = ['src', 'e2e', 'test', 'bench', 'scripts'];
const TEXT_EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.mjs', '.cjs', '.css', '.sql', '.html', '.md', '.json', '.sh']);
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'results', 'meta']);
/** This checker and its test spell the forbidden citations out on purpose. */
const SELF = new Set(['scripts/check-citations.mjs', 'scripts/check-citations.test.mjs']);

/** Outside notes the repository does not contain, cited by bare file name (a docs/ path is checked below). */
const OUTSIDE_NOTES = /(?<![\w/.-])(design|spec|style|providers|containers)\.md\b/gi;
const FORBIDDEN = [
  { pattern: OUTSIDE_NOTES, why: 'cites a note that is not in the repository; cite docs/… or a decision instead' },
  { pattern: /\bspec(?:ification)?(?:'s)?\s+sections?\s*\d/gi, why: 'cites a specification section; cite docs/product.md#… instead' },
  { pattern: /\bspec(?:ification)?\s*§/gi, why: 'cites a specification section; cite docs/product.md#… instead' },
  { pattern: /\bissues?\s+#?\d+/gi, why: 'cites an issue number; cite a decision or a docs/ section instead' },
  { pattern: /\bissue\s+["“][^"”]+["”]/gi, why: 'cites an issue by its title; cite a decision or a docs/ section instead' },
  { pattern: /\(spec(?:ification)?[:,)]/gi, why: 'cites the specification; cite docs/product.md#… instead' },
];
const DECISION_LIST = /\bdecisions?\s+((?:\d{4})(?:\s*(?:,|and|or|&|\/)\s*\d{4})*)/gi;
const DECISION_PATH = /\bdocs\/decisions\/(\d{4})([\w.-]*)/g;
const DOC_PATH = /\bdocs\/((?:[\w-]+\/)*[\w.-]+\.md)(#[\w-]+)?/g;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Anchors of a markdown text: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
export function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]);
  }
  return anchors;
}

/**
 * What the repository holds: decision numbers and file names, and docs/ files with their anchors.
 * `root` is the repository's root folder.
 */
export function loadRepository(root = ROOT) {
  const decisionsDir = path.join(root, 'docs', 'decisions');
  const decisionFiles = readdirSync(decisionsDir).filter((f) => /^\d{4}-.*\.md$/.test(f));
  const docs = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.md'))
        docs.set(path.relative(path.join(root, 'docs'), full).split(path.sep).join('/'), anchorsOf(readFileSync(full, 'utf8')));
    }
  };
  walk(path.join(root, 'docs'));
  return {
    decisionNumbers: new Set(decisionFiles.map((f) => f.slice(0, 4))),
    decisionFiles: new Set(decisionFiles.map((f) => f.slice(0, -3))),
    docs,
  };
}

/** Problems in one file's text: `{ line, text, why }` for each bad citation. */
export function problemsIn(text, repo) {
  const problems = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const report = (match, why) => problems.push({ line: index + 1, text: match, why });
    for (const { pattern, why } of FORBIDDEN) {
      for (const m of line.matchAll(pattern)) report(m[0], why);
    }
    for (const m of line.matchAll(DECISION_LIST)) {
      for (const n of m[1].match(/\d{4}/g)) {
        if (!repo.decisionNumbers.has(n)) report(`decision ${n}`, 'no such decision in docs/decisions/');
      }
    }
    for (const m of line.matchAll(DECISION_PATH)) {
      const [, n, rest] = m;
      if (!repo.decisionNumbers.has(n)) report(m[0], 'no such decision in docs/decisions/');
      else {
        const name = rest.replace(/[.]+$/, '').replace(/\.md$/, '');
        if (name.startsWith('-') && !repo.decisionFiles.has(`${n}${name}`)) report(m[0], 'no such decision file in docs/decisions/');
      }
    }
    for (const m of line.matchAll(DOC_PATH)) {
      const [, file, anchor] = m;
      if (file.startsWith('decisions/') && /^decisions\/\d{4}/.test(file)) continue; // checked above
      const anchors = repo.docs.get(file);
      if (!anchors) report(m[0], 'no such file in docs/');
      else if (anchor && !anchors.has(anchor.slice(1))) report(m[0], `no heading ${anchor} in docs/${file}`);
    }
    // A docs/ anchor followed by more of the same file's anchors: "docs/product.md#routes, #states".
    for (const m of line.matchAll(/\bdocs\/((?:[\w-]+\/)*[\w.-]+\.md)#[\w-]+((?:\s*(?:,|and)\s*#[\w-]+)+)/g)) {
      const anchors = repo.docs.get(m[1]);
      if (!anchors) continue;
      for (const more of m[2].match(/#[\w-]+/g)) {
        if (!anchors.has(more.slice(1))) report(more, `no heading ${more} in docs/${m[1]}`);
      }
    }
  });
  return problems;
}

/** Every scanned file (repository-relative, forward slashes). */
export function scannedFiles(root = ROOT) {
  const files = [];
  const walk = (dir) => {
    let names;
    try {
      names = readdirSync(path.join(root, dir));
    } catch {
      return;
    }
    for (const name of names) {
      const rel = `${dir}/${name}`;
      if (statSync(path.join(root, rel)).isDirectory()) {
        if (!SKIPPED_DIRS.has(name)) walk(rel);
      } else if (TEXT_EXTENSIONS.has(path.extname(name)) && !SELF.has(rel)) files.push(rel);
    }
  };
  for (const dir of SCANNED_DIRS) walk(dir);
  return files;
}

export function checkRepository(root = ROOT) {
  const repo = loadRepository(root);
  const found = [];
  for (const file of scannedFiles(root)) {
    for (const p of problemsIn(readFileSync(path.join(root, file), 'utf8'), repo)) found.push({ file, ...p });
  }
  return found;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = checkRepository();
  for (const p of found) console.error(`${p.file}:${p.line}: "${p.text}" ${p.why}`);
  if (found.length > 0) {
    console.error(`check-citations: ${found.length} citation(s) point outside the repository or to nothing.`);
    process.exit(1);
  }
}
