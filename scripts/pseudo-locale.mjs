#!/usr/bin/env node
// Writes the pseudo-locale's catalogue (decision 0326) from the English one: every message accented and
// about 40% longer, between brackets, with its placeholders ({name}) and tags (<0>…</0>) left whole. A
// page shown in it makes untranslated text (plain English), text cut short (no closing bracket) and
// layouts that break with longer languages visible at a glance. Run by `npm run i18n:extract`, after
// `lingui extract`; `node scripts/pseudo-locale.mjs --check` fails when the file is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatter } from '@lingui/format-po';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The web's catalogue (decision 0326) and the server's (decision 0328). */
const CATALOGUES = ['src/web/locales', 'src/server/locales'].map((folder) => ({
  source: path.join(ROOT, folder, 'en/messages.po'),
  target: path.join(ROOT, folder, 'pseudo/messages.po'),
}));

const ACCENTED = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'àƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i],
  ]),
);

/** Placeholders and tags, which the message format reads, must reach the catalogue unchanged. */
const PROTECTED = /(\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|<\/?\d+\/?>)/;

/** "Log in" → "[Ļöĝ îñ ··]": accented, and padded to about 140% of its visible length. */
export function pseudoLocalize(message) {
  let visible = 0;
  const body = message
    .split(PROTECTED)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      visible += part.length;
      return [...part].map((c) => ACCENTED[c] ?? c).join('');
    })
    .join('');
  if (visible === 0) return message;
  const padding = '·'.repeat(Math.max(1, Math.ceil(visible * 0.4) - 3));
  return `[${body} ${padding}]`;
}

const format = formatter({ lineNumbers: false });

async function writePseudo(source, target) {
  const ctx = { locale: 'pseudo', sourceLocale: 'en', filename: target };
  const english = await format.parse(readFileSync(source, 'utf8'), { ...ctx, locale: 'en', filename: source });
  const catalog = Object.fromEntries(
    Object.entries(english).map(([id, entry]) => [id, { ...entry, translation: pseudoLocalize(entry.message ?? entry.translation ?? id) }]),
  );
  let existing = null;
  try {
    existing = readFileSync(target, 'utf8');
  } catch {
    // First run: no catalogue yet.
  }
  const text = await format.serialize(catalog, { ...ctx, existing });
  if (process.argv.includes('--check')) {
    if (existing !== text) {
      console.error(`${path.relative(ROOT, target)} is out of date: run npm run i18n:extract`);
      process.exitCode = 1;
    }
    return;
  }
  writeFileSync(target, text);
}

async function main() {
  for (const { source, target } of CATALOGUES) await writePseudo(source, target);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
