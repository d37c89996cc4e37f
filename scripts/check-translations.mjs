#!/usr/bin/env node
// Every language speaks every message (docs/decisions/0326-one-catalogue-per-language.md). For each
// folder of catalogues (src/web/locales, and src/server/locales once it exists), English
// (`en/messages.po`) is the source; every other language's catalogue, besides the pseudo-locale (written
// by scripts/pseudo-locale.mjs, checked by its --check), must hold every message English has, each with a
// translation. The check fails when a message is missing from a language or its msgstr is empty, and
// names the language and the first messages concerned. Run by `npm run lint`, after
// `node scripts/pseudo-locale.mjs --check`; `node scripts/check-translations.mjs` prints each problem.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatter } from '@lingui/format-po';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The folders holding one `<locale>/messages.po` per language, relative to the repository. */
export const CATALOGUE_DIRS = ['src/web/locales', 'src/server/locales'];
export const SOURCE_LOCALE = 'en';
/** Written from English by a script, never by a translator. */
export const GENERATED_LOCALES = ['pseudo'];
/** How many messages a problem names before it says "and N more". */
const SHOWN = 5;

const format = formatter({ lineNumbers: false });

/** The live messages of a PO text, by id: { message (English), translation }. Obsolete entries are left out. */
export async function readCatalogue(text, locale, filename) {
  const entries = await format.parse(text, { locale, sourceLocale: SOURCE_LOCALE, filename });
  return Object.fromEntries(Object.entries(entries).filter(([, entry]) => !entry.obsolete));
}

function quoted(ids, source) {
  const names = ids.slice(0, SHOWN).map((id) => JSON.stringify(source[id]?.message ?? id));
  return names.join(', ') + (ids.length > SHOWN ? ` and ${ids.length - SHOWN} more` : '');
}

/**
 * The problems of one folder of catalogues (absolute path), each a line naming the language, its file
 * and the first messages concerned. An absent folder has none.
 */
export async function catalogueProblems(dir, { label = path.relative(ROOT, dir) } = {}) {
  if (!existsSync(dir)) return [];
  const sourceFile = path.join(dir, SOURCE_LOCALE, 'messages.po');
  if (!existsSync(sourceFile)) return [`${label}: no ${SOURCE_LOCALE}/messages.po to compare the languages with`];
  const source = await readCatalogue(readFileSync(sourceFile, 'utf8'), SOURCE_LOCALE, sourceFile);
  const locales = readdirSync(dir)
    .filter((name) => statSync(path.join(dir, name)).isDirectory())
    .filter((name) => name !== SOURCE_LOCALE && !GENERATED_LOCALES.includes(name))
    .sort();
  const problems = [];
  for (const locale of locales) {
    const file = path.join(dir, locale, 'messages.po');
    const where = `${label}/${locale}/messages.po`;
    if (!existsSync(file)) {
      problems.push(`${locale}: ${where} is missing; run npm run i18n:extract`);
      continue;
    }
    const catalogue = await readCatalogue(readFileSync(file, 'utf8'), locale, file);
    const ids = Object.keys(source);
    const missing = ids.filter((id) => !(id in catalogue));
    const empty = ids.filter((id) => id in catalogue && !(catalogue[id].translation ?? '').trim());
    if (missing.length > 0) {
      problems.push(
        `${locale}: ${where} lacks ${missing.length} message(s) English has (run npm run i18n:extract): ${quoted(missing, source)}`,
      );
    }
    if (empty.length > 0) {
      problems.push(`${locale}: ${where} has ${empty.length} message(s) without a translation (empty msgstr): ${quoted(empty, source)}`);
    }
  }
  return problems;
}

/** The problems of every folder of catalogues under a repository root. */
export async function checkRepository(root = ROOT) {
  const problems = [];
  for (const dir of CATALOGUE_DIRS) problems.push(...(await catalogueProblems(path.join(root, dir), { label: dir })));
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = await checkRepository();
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    console.error('Translate every message of every language (docs/translating.md).');
    process.exitCode = 1;
  } else {
    console.log('check-translations: every language has every message English has, each translated');
  }
}
