#!/usr/bin/env node
// Rewrites relative imports that leave their own folder into the import aliases of package.json
// `imports` (#server/..., #shared/..., #web/...). Re-runnable: a second run changes nothing.
//
//   node scripts/use-import-aliases.mjs            rewrite src/** and e2e/** in place
//   node scripts/use-import-aliases.mjs --check    change nothing; list what would change, exit 1 if any
//   node scripts/use-import-aliases.mjs --verbose  also print every rewritten specifier
//   node scripts/use-import-aliases.mjs src/web    only these files or folders
//
// The rule (docs/decisions/0150-import-aliases.md). Every file belongs to one "unit":
//   - a folder directly inside a container: src/server/modules/<m>, src/server/sandbox/<s>,
//     src/web/features/<f> (one module, one sandbox, one feature);
//   - otherwise the top-level folder of its area: src/server/db, src/web/lib, src/shared/schemas, ...;
//   - a file directly in src/server, src/shared or src/web belongs to the whole area.
// A relative import whose target lies inside the importer's unit stays relative (`./x`, `../api/x`
// within one feature). One whose target lies outside it, in an aliased area, becomes the alias:
//   src/web/features/x/components/y.tsx: '../../../lib/api-client' -> '#web/lib/api-client'
//   src/server/modules/m/m.routes.ts:   '../../../shared/schemas/m.js' -> '#shared/schemas/m.js'
//   e2e/status/status-page.spec.ts:     '../../src/shared/routes.js' -> '#shared/routes.js'
// The rest of the specifier is kept as written: `.js` extensions on the server side, none on the web
// side, `?raw`-style suffixes. Imports between e2e files and anything outside src/ stay as they are.
//
// Specifiers are found with the TypeScript parser, never by searching text: import and `import type`
// declarations, `export ... from`, `import()` calls, `typeof import('...')` types, `import x = require()`,
// `require()`, and the path argument of vi.mock / vi.doMock / vi.unmock / vi.doUnmock /
// vi.importActual / vi.importMock.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_ROOTS = ['src', 'e2e'];
/** Folders whose every child folder is a unit of its own. */
const CONTAINERS = ['src/server/modules', 'src/server/sandbox', 'src/web/features'].map((p) => path.join(ROOT, p));
const EXTENSIONS = /\.(ts|tsx|mts|cts)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'migrations', 'test-results']);
const VI_PATH_METHODS = new Set(['mock', 'doMock', 'unmock', 'doUnmock', 'importActual', 'importMock']);

const args = process.argv.slice(2);
const check = args.includes('--check');
const verbose = args.includes('--verbose');
const roots = args.filter((a) => !a.startsWith('--'));

/** The aliases, read from package.json `imports` ("#web/*": "./src/web/*"): [{ prefix: '#web/', dir }]. */
function readAliases() {
  const { imports = {} } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const aliases = [];
  for (const [key, target] of Object.entries(imports)) {
    const k = /^(#[^*]+\/)\*$/.exec(key);
    const t = typeof target === 'string' ? /^\.\/(.+)\/\*$/.exec(target) : null;
    if (!k || !t) throw new Error(`package.json "imports": ${key} -> ${JSON.stringify(target)} is not of the form "#name/*": "./dir/*"`);
    aliases.push({ prefix: k[1], dir: path.join(ROOT, t[1]) });
  }
  if (aliases.length === 0) throw new Error('package.json has no "imports" to rewrite to.');
  return aliases;
}

const ALIASES = readAliases();

const inside = (dir, file) => {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

/** The unit a file belongs to (see the header), or null outside every aliased area (e2e/). */
function unitOf(file) {
  const area = ALIASES.find((a) => inside(a.dir, file));
  if (!area) return null;
  const parts = path.relative(area.dir, file).split(path.sep);
  if (parts.length === 1) return area.dir;
  const top = path.join(area.dir, parts[0]);
  if (CONTAINERS.includes(top) && parts.length >= 3) return path.join(top, parts[1]);
  return top;
}

/** The alias form of a relative specifier, or null when it stays as it is. */
export function aliasFor(importer, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  const query = specifier.indexOf('?');
  const bare = query === -1 ? specifier : specifier.slice(0, query);
  const suffix = query === -1 ? '' : specifier.slice(query);
  // A folder import ('..', '../x/') would need index resolution, which `imports` patterns do not do.
  if (bare.endsWith('/') || /(^|\/)\.\.?$/.test(bare)) return null;
  const target = path.resolve(path.dirname(importer), bare);
  const area = ALIASES.find((a) => inside(a.dir, target));
  if (!area) return null;
  const unit = unitOf(importer);
  if (unit && (target === unit || inside(unit, target))) return null;
  return area.prefix + path.relative(area.dir, target).split(path.sep).join('/') + suffix;
}

/** String literals in `source` that name a module. */
function moduleSpecifiers(source) {
  const found = [];
  const add = (node) => {
    if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) found.push(node);
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      const isVi =
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === 'vi' &&
        VI_PATH_METHODS.has(callee.name.text);
      if (isImport || isRequire || isVi) add(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file's text with its specifiers rewritten, and what was rewritten. */
export function rewrite(file, text) {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const edits = [];
  for (const literal of moduleSpecifiers(source)) {
    const alias = aliasFor(file, literal.text);
    // The literal's text between its quotes; specifiers never contain escapes.
    if (alias) edits.push({ start: literal.getStart(source) + 1, end: literal.end - 1, from: literal.text, to: alias });
  }
  edits.sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.to + out.slice(e.end);
  return { text: out, edits: edits.reverse() };
}

function* sourceFiles(entry) {
  if (!existsSync(entry)) return;
  if (statSync(entry).isFile()) {
    if (EXTENSIONS.test(entry) && !entry.endsWith('.d.ts')) yield entry;
    return;
  }
  for (const name of readdirSync(entry).sort()) {
    if (SKIP_DIRS.has(name)) continue;
    yield* sourceFiles(path.join(entry, name));
  }
}

function main() {
  const targets = (roots.length ? roots : DEFAULT_ROOTS).map((r) => path.resolve(ROOT, r));
  let files = 0;
  let specifiers = 0;
  for (const target of targets) {
    for (const file of sourceFiles(target)) {
      const text = readFileSync(file, 'utf8');
      const result = rewrite(file, text);
      if (result.edits.length === 0) continue;
      files += 1;
      specifiers += result.edits.length;
      const rel = path.relative(ROOT, file);
      if (check || verbose) {
        console.log(`${rel}: ${result.edits.length}`);
        if (verbose) for (const e of result.edits) console.log(`  ${e.from} -> ${e.to}`);
      }
      if (!check) writeFileSync(file, result.text);
    }
  }
  if (check) {
    console.log(specifiers ? `${specifiers} import(s) in ${files} file(s) should use an alias.` : 'All imports already use the aliases.');
    process.exitCode = specifiers ? 1 : 0;
  } else {
    console.log(`Rewrote ${specifiers} import(s) in ${files} file(s).`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
