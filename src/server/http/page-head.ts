import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES, type Locale } from '#shared/constants.js';
import { paths } from '#shared/routes.js';
import { parsePo } from '#server/i18n/po.js';
import { translatorFor } from '#server/i18n/translator.js';

/**
 * The head of the page the server sends before JavaScript runs (docs/decisions/0331): `<html lang>`,
 * `<title>`, the description and the OpenGraph tags in the visitor's language, so that a link preview,
 * a crawler and the first paint read what the app will show.
 *
 * The titles and descriptions are the web's own messages: each page sets them with `usePageMeta(t`…`)`
 * and translators translate them once, in `src/web/locales/<locale>/messages.po`. The table below names
 * each page's English message (its msgid there) and reads the translation from that catalogue, so there
 * is one translation of each title; `page-head.test.ts` fails when an English text here is not a
 * message of the web's catalogue (a page renamed its title without this table).
 */

/** The web's catalogues beside the sources; from dist/server/http/ the same path leads back to src/. */
export const WEB_LOCALES_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src/web/locales');

export const SITE_NAME = 'Olympus';
/** `DEFAULT_DESCRIPTION_MESSAGE` of src/web/components/use-page-meta.ts. */
export const DEFAULT_DESCRIPTION = 'Olympus: top up credits in crypto, swap coins and earn rewards, get support fast.';
/** The shell's "Loading…" of src/web/app/app-loading.tsx, in index.html until the first render. */
const LOADING = 'Loading Olympus…';

export interface PageMessages {
  /** The page's title as its `usePageMeta` writes it, without the " · Olympus". */
  title: string;
  description: string;
}

/** Public pages: what a shared link or a search result shows (each as the page's own `usePageMeta`). */
export const PAGE_MESSAGES: Record<string, PageMessages> = {
  [paths.home]: {
    title: 'Crypto credits, swaps and rewards',
    description:
      'Top up credits in crypto through NOWPayments, swap coins instantly and earn reward credits, with support tickets that get answered.',
  },
  [paths.status]: {
    title: 'Status',
    description: 'Live health of the Olympus API, database, payment provider and swap provider, with 90 days of history and incidents.',
  },
  [paths.privacy]: {
    title: 'Privacy Policy',
    description: 'What personal data Olympus collects, why, who we share it with and your rights.',
  },
  [paths.terms]: {
    title: 'Terms of Service',
    description: 'The terms for using Olympus: accounts, credits, crypto payments, swaps and rewards.',
  },
  [paths.patchNotes]: {
    title: 'Patch Notes',
    description: 'Every Olympus release: new features, improvements, fixes and security changes.',
  },
  [paths.login]: {
    title: 'Log in',
    description: 'Log in to Olympus to see your credits, exchange rewards and support tickets.',
  },
  [paths.register]: {
    title: 'Create your account',
    description: 'Sign up for Olympus: top up credits in crypto and claim your exchange rewards.',
  },
  [paths.forgotPassword]: {
    title: 'Forgot password',
    description: 'Get a link to choose a new password for your Olympus account.',
  },
  [paths.jobs]: {
    title: 'Jobs',
    description: 'Open roles at Olympus: build crypto payments, swaps and support that people trust.',
  },
  [paths.portfolio]: {
    title: 'Portfolio',
    description: 'What the Olympus team has built: crypto top-ups, instant swaps with rewards, support and more.',
  },
  [paths.reviews]: {
    title: 'Reviews',
    description: 'What Olympus customers say about crypto top-ups, swaps, rewards and support.',
  },
  [paths.help]: {
    title: 'Help centre',
    description: 'Answers to the questions people ask most about payments, exchanges, rewards and account security.',
  },
  [paths.advertise]: {
    title: 'Advertise with us',
    description: 'Run ads on Olympus and pay with your credit balance: budgets, daily pacing, frequency caps and reports.',
  },
};

/** src/web/app/not-found-page.tsx. */
export const NOT_FOUND_MESSAGES: PageMessages = {
  title: 'Page not found',
  description: 'This page does not exist on Olympus.',
};

/** Pages under these keep their section's title until the app knows more (a help article, a status link). */
const SECTIONS = [paths.status, paths.help];

/** The page's messages for a path the app knows; null for the rest (signed-in pages: the site's name). */
export function pageMessages(pathname: string): PageMessages | null {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const exact = PAGE_MESSAGES[clean];
  if (exact) return exact;
  const section = SECTIONS.find((base) => clean.startsWith(`${base}/`));
  return section ? PAGE_MESSAGES[section]! : null;
}

/** OpenGraph's locale form (language_TERRITORY) of each language. */
export const OG_LOCALES: Record<Locale, string> = { en: 'en_US', es: 'es_ES', ru: 'ru_RU', de: 'de_DE' };

const webCatalogues = new Map<Locale, Map<string, string>>();

/** A message of the web's catalogue in `locale`; English (the message itself) where it has none. */
export function webMessage(locale: Locale, message: string): string {
  if (locale === 'en') return message;
  let catalogue = webCatalogues.get(locale);
  if (!catalogue) {
    try {
      catalogue = parsePo(readFileSync(path.join(WEB_LOCALES_FOLDER, locale, 'messages.po'), 'utf8'));
    } catch {
      catalogue = new Map();
    }
    webCatalogues.set(locale, catalogue);
  }
  return catalogue.get(message) ?? message;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The built index.html with its head in `locale` for this page: lang, title, description, OpenGraph
 * (title, description, locale and the other languages as alternates, type, site name, and the page's
 * address unless it is a 404), and the loading and no-JavaScript lines of the body.
 */
export function localizedIndexHtml(
  template: string,
  input: { locale: Locale; pathname: string; found: boolean; publicUrl: string },
): string {
  const { locale } = input;
  const messages = input.found ? pageMessages(input.pathname) : NOT_FOUND_MESSAGES;
  const title = messages ? `${webMessage(locale, messages.title)} · ${SITE_NAME}` : SITE_NAME;
  const description = webMessage(locale, messages?.description ?? DEFAULT_DESCRIPTION);
  const tr = translatorFor(locale);
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeHtml(content)}" />`;
  const openGraph = [
    meta('og:type', 'website'),
    meta('og:site_name', SITE_NAME),
    meta('og:title', title),
    meta('og:description', description),
    meta('og:locale', OG_LOCALES[locale]),
    ...LOCALES.filter((other) => other !== locale).map((other) => meta('og:locale:alternate', OG_LOCALES[other])),
    ...(input.found ? [meta('og:url', `${input.publicUrl}${input.pathname}`)] : []),
  ];
  return template
    .replace(/<html\b[^>]*>/, `<html lang="${locale}" dir="ltr">`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(/<meta name="description" content="[^"]*"\s*\/?>/, () => `<meta name="description" content="${escapeHtml(description)}" />`)
    .replace(/<\/head>/, () => `  ${openGraph.join('\n    ')}\n  </head>`)
    .replace(`>${LOADING}<`, () => `>${escapeHtml(webMessage(locale, LOADING))}<`)
    .replace(/<noscript>[^<]*<\/noscript>/, () => `<noscript>${escapeHtml(tr.t(/*i18n*/ 'Olympus needs JavaScript to run.'))}</noscript>`);
}
