import type { Locale } from '#shared/constants';
import type { UiLocale } from '#web/features/language';

/**
 * The language the help centre's public routes are asked for (docs/decisions/0328): the page's, so an
 * article with a translation in it is read translated. English, the articles' own language, and the
 * pseudo-locale send none, so those requests are as they always were.
 */
export function readerLocale(locale: UiLocale): Exclude<Locale, 'en'> | null {
  return locale === 'en' || locale === 'pseudo' ? null : locale;
}
