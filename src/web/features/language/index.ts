/**
 * The language feature's public entry (decision 0326): the active language, its detection and
 * activation, the choice (device and account) and the switch. Small and in the entry: the header uses it.
 */
export {
  activateLocale,
  currentLocale,
  detectLocale,
  initialLocale,
  languageTag,
  LOCALE_NAMES,
  UI_LOCALES,
  useLocale,
  type UiLocale,
} from './locale';
export { chooseLocale, followAccountLocale } from './choose-locale';
export { LanguageSwitch } from './language-switch';
export { RichText } from './rich-text';
