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

/** Tags (<0>…</0>), which the message format reads, reach the catalogue unchanged. */
const TAG = /^<\/?\d+\/?>/;

/**
 * Accents the text of an ICU message and leaves its syntax whole: a placeholder ({name}, {0, number})
 * as it is, and in a plural or select ({n, plural, one {…} other {…}}) each case's text accented in
 * turn, with its `#`. Answers the accented message and how many characters of text it holds.
 */
function accent(message, inPlural = false) {
  let out = '';
  let visible = 0;
  let i = 0;
  while (i < message.length) {
    const c = message[i];
    const tag = TAG.exec(message.slice(i));
    if (tag) {
      out += tag[0];
      i += tag[0].length;
    } else if (c === '{') {
      const end = matchingBrace(message, i);
      const inner = message.slice(i + 1, end);
      const [name, type] = inner.split(',').map((part) => part.trim());
      if (type === 'plural' || type === 'select' || type === 'selectordinal') {
        const cases = accentCases(inner.slice(inner.indexOf(',', inner.indexOf(',') + 1) + 1), type !== 'select');
        out += `{${name}, ${type},${cases.text}}`;
        visible += cases.visible;
      } else {
        out += message.slice(i, end + 1);
      }
      i = end + 1;
    } else if (c === '#' && inPlural) {
      out += c;
      i += 1;
    } else {
      out += ACCENTED[c] ?? c;
      visible += 1;
      i += 1;
    }
  }
  return { text: out, visible };
}

/** The cases of a plural or select (` one {…} other {…}`), each case's message accented. */
function accentCases(source, plural) {
  let text = '';
  let visible = 0;
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('{', i);
    if (open < 0) break;
    const end = matchingBrace(source, open);
    const inner = accent(source.slice(open + 1, end), plural);
    text += `${source.slice(i, open)}{${inner.text}}`;
    visible = Math.max(visible, inner.visible);
    i = end + 1;
  }
  return { text: text + source.slice(i), visible };
}

function matchingBrace(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`unbalanced braces in: ${text}`);
}

/** "Log in" → "[Ļöĝ îñ ··]": accented, and padded to about 140% of its visible length. */
export function pseudoLocalize(message) {
  const { text, visible } = accent(message);
  if (visible === 0) return message;
  // Words of at most five dots: longer languages have more and longer words, not one that cannot wrap.
  const dots = Math.max(1, Math.ceil(visible * 0.4) - 3);
  const padding = Array.from({ length: Math.ceil(dots / 5) }, (_, i) => '·'.repeat(Math.min(5, dots - i * 5))).join(' ');
  return `[${text} ${padding}]`;
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
