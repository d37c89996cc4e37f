#!/usr/bin/env node
// The map in docs/architecture.md must not drift from the code (docs/architecture.md#layers). Fails
// when a folder of src/server/modules (or a part of one: a sub-folder with its own routes or tables,
// such as support/tickets) has no row in the "Server modules" table, a row names no such folder, a job name (a
// `*_JOB = '…'` constant) is missing from the "Jobs" table, a top-level folder of src/server is missing
// from the layer tree, a job is defined without such a constant, or docs/decisions/README.md lists its
// records out of number order or leaves one out. Run by `npm run lint`; prints each problem on a line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The text of one `## heading` (or `### heading`) section of a Markdown file, up to the next heading of its level or above. */
export function section(markdown, heading) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.replace(/^#+\s*/, '') === heading && /^#+\s/.test(line));
  if (start < 0) return '';
  const level = lines[start].match(/^#+/)[0].length;
  const end = lines.findIndex((line, i) => i > start && /^#+\s/.test(line) && line.match(/^#+/)[0].length <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** Names written in backticks in a text: `auth`, `mail.send`. */
function backticked(text) {
  return new Set([...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]));
}

function walk(dir, files = []) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, files);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(full);
  }
  return files;
}

/** Job names the server defines: every `*_JOB = '…'` constant, and every `jobs.define` that names its job some other way. */
export function jobsInCode(sources) {
  const names = new Set();
  const unnamed = [];
  for (const [file, text] of sources) {
    for (const m of text.matchAll(/\b[A-Z][A-Z0-9_]*_JOB\s*=\s*'([^']+)'/g)) names.add(m[1]);
    for (const m of text.matchAll(/\.define\(\{\s*name:\s*([^,\s}]+)/g)) {
      if (!/^[A-Z][A-Z0-9_]*_JOB$/.test(m[1])) unnamed.push(`${file}: jobs.define names its job with ${m[1]}, not a *_JOB constant`);
    }
  }
  return { names, unnamed };
}

/** Problems with docs/decisions/README.md: rows out of number order, records without a row, rows without a record. */
export function decisionIndexProblems(index, files) {
  const problems = [];
  const rows = [...index.matchAll(/^\| \[(\d{4})\]\(([^)]+)\)/gm)].map((m) => ({ number: m[1], file: m[2] }));
  for (let i = 1; i < rows.length; i++) {
    if (rows[i].number <= rows[i - 1].number) problems.push(`decisions/README.md: ${rows[i].number} comes after ${rows[i - 1].number}`);
  }
  const listed = new Set(rows.map((r) => r.file));
  for (const file of files) if (!listed.has(file)) problems.push(`decisions/README.md: no row for ${file}`);
  const present = new Set(files);
  for (const row of rows)
    if (!present.has(row.file)) problems.push(`decisions/README.md: row ${row.number} links to ${row.file}, which does not exist`);
  return problems;
}

/**
 * Every problem of a repository laid out as this one: `modules` (folder names under src/server/modules
 * and their parts, as moduleFolders answers),
 * `serverFolders` (top-level folders of src/server), `sources` ([file, text] of the server's code),
 * `architecture` (docs/architecture.md), `decisionIndex` and `decisionFiles`.
 */
export function docsProblems({ modules, serverFolders, sources, architecture, decisionIndex, decisionFiles }) {
  const problems = [];
  const table = backticked(
    section(architecture, 'Server modules')
      .split('\n')
      .filter((l) => l.startsWith('|'))
      .map((l) => l.split('|')[1] ?? '')
      .join(' '),
  );
  for (const name of modules) if (!table.has(name)) problems.push(`architecture.md#server-modules: no row for the module \`${name}\``);
  const folders = new Set(modules);
  for (const name of [...table].sort())
    if (!folders.has(name)) problems.push(`architecture.md#server-modules: the row \`${name}\` names no folder of src/server/modules`);
  const tree = section(architecture, 'Layers');
  for (const folder of serverFolders) {
    if (!new RegExp(`^\\s+${folder}/`, 'm').test(tree))
      problems.push(`architecture.md#layers: the layer tree leaves out src/server/${folder}/`);
  }
  const { names, unnamed } = jobsInCode(sources);
  const documented = backticked(section(architecture, 'Jobs'));
  for (const name of [...names].sort()) if (!documented.has(name)) problems.push(`architecture.md#jobs: the job \`${name}\` is not listed`);
  problems.push(...unnamed, ...decisionIndexProblems(decisionIndex, decisionFiles));
  return problems;
}

const dirs = (dir) => readdirSync(dir).filter((name) => statSync(path.join(dir, name)).isDirectory());

/**
 * The modules under `modulesDir` and their parts: each folder, and each sub-folder of one that holds
 * routes or tables of its own (`support/tickets`; a folder of helpers such as `mail/templates` is no part).
 */
export function moduleFolders(modulesDir) {
  const names = [];
  for (const module of dirs(modulesDir)) {
    names.push(module);
    for (const sub of dirs(path.join(modulesDir, module))) {
      const files = readdirSync(path.join(modulesDir, module, sub));
      if (files.some((f) => /\.(routes|tables)\.ts$/.test(f))) names.push(`${module}/${sub}`);
    }
  }
  return names;
}

/** Reads this repository and answers its problems. */
export function checkRepository(root = ROOT) {
  const server = path.join(root, 'src/server');
  return docsProblems({
    modules: moduleFolders(path.join(server, 'modules')),
    serverFolders: dirs(server),
    sources: walk(server).map((file) => [path.relative(root, file), readFileSync(file, 'utf8')]),
    architecture: readFileSync(path.join(root, 'docs/architecture.md'), 'utf8'),
    decisionIndex: readFileSync(path.join(root, 'docs/decisions/README.md'), 'utf8'),
    decisionFiles: readdirSync(path.join(root, 'docs/decisions')).filter((f) => /^\d{4}-.*\.md$/.test(f)),
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkRepository();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`check-docs: ${problems.length} place(s) where docs/ no longer matches the code`);
    process.exit(1);
  }
  console.log('check-docs: the module table, the jobs list, the layer tree and the decision index match the code');
}
