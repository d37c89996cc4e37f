import { LOCALES, type Locale } from '#shared/constants.js';

/**
 * The reader's language from an HTTP request, for what the server writes before anyone has signed in
 * (docs/decisions/0331): the HTML before JavaScript and the status feed.
 */

/** `es`, `ru`, `de` or `en` from a value such as `de` or `de-AT`; null for anything else (`pseudo` too). */
export function supportedLocale(value: string | null | undefined): Locale | null {
  if (!value) return null;
  const primary = value.trim().toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((locale) => locale === primary) ?? null;
}

/**
 * The product's language a browser or crawler prefers most, from `Accept-Language` (RFC 9110 §12.5.4:
 * tags with optional `q` weights, `*` for any). Tags the product does not speak are skipped; null when none
 * of them is ours (the caller's English then).
 */
export function acceptedLocale(header: string | string[] | undefined): Locale | null {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return null;
  const ranked: { locale: Locale; q: number; order: number }[] = [];
  value
    .split(',')
    .slice(0, 32)
    .forEach((part, order) => {
      const [tag, ...params] = part.trim().split(';');
      const locale = supportedLocale(tag);
      if (!locale) return;
      // A weight that is not a number makes the tag unreadable: skipped, as a weight of 0 is.
      const weight = params.map((p) => /^\s*q\s*=\s*(.*?)\s*$/i.exec(p)).find(Boolean);
      const q = weight ? (/^[0-9.]+$/.test(weight[1]!) ? Number(weight[1]) : NaN) : 1;
      if (Number.isFinite(q) && q > 0) ranked.push({ locale, q, order });
    });
  ranked.sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked[0]?.locale ?? null;
}

/** One cookie's value from a `Cookie` header; null when absent or unreadable. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name && rest.length > 0) {
      try {
        return decodeURIComponent(rest.join('=')) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}
