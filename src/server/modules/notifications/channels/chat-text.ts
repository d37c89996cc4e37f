/**
 * A notice's text for each platform's formatting (decision 0265): the title, the body and the link,
 * escaped so that nothing a user typed (a ticket subject, a username) is read as formatting, a link or a
 * mention.
 */

/** Telegram's HTML parse mode: only `<`, `>`, `&` (and `"` inside an attribute) need escaping. */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** Every character Discord's markdown gives a meaning to (emphasis, code, quotes, headings, lists, masked links, spoilers, mentions, emoji). */
const DISCORD_MARKDOWN = /[\\*_~`|<>#\-+.[\]():@!]/g;

/** Discord markdown: a backslash before any punctuation shows it as itself. */
export function escapeDiscordMarkdown(text: string): string {
  return text.replace(DISCORD_MARKDOWN, (c) => `\\${c}`);
}

/** Only absolute http(s) links leave in a notice; anything else is a programming error. */
export function checkedLink(link: string): string {
  const url = new URL(link);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('A notice link must be an http(s) URL');
  return url.toString();
}

/** Shortens `text` (by code points, ending in "…") until `fits` holds for what it becomes. */
export function shortenToFit(text: string, fits: (candidate: string) => boolean): string {
  if (fits(text)) return text;
  const chars = Array.from(text);
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(`${chars.slice(0, mid).join('')}…`)) low = mid;
    else high = mid - 1;
  }
  return `${chars.slice(0, low).join('')}…`;
}

/** Telegram: at most 4096 characters after entities are parsed. */
export const TELEGRAM_TEXT_LIMIT = 4096;
/** Discord: at most 2000 characters of content. */
export const DISCORD_CONTENT_LIMIT = 2000;
const TITLE_LIMIT = 200;

export interface TelegramText {
  text: string;
  parse_mode: 'HTML';
}

export const TELEGRAM_LINK_LABEL = 'Open in Olympus';

/** `<b>title</b>`, the body, and a link to the thing itself (its words in the reader's language). */
export function telegramText(title: string, body: string, link: string, linkLabel: string = TELEGRAM_LINK_LABEL): TelegramText {
  const url = checkedLink(link);
  const shortTitle = shortenToFit(title, (t) => Array.from(t).length <= TITLE_LIMIT);
  // The limit counts what people see: the entities' text, not the tags.
  const visible = (b: string) => `${shortTitle}\n${b}\n\n${linkLabel}`;
  const shortBody = shortenToFit(body, (b) => Array.from(visible(b)).length <= TELEGRAM_TEXT_LIMIT);
  return {
    text: `<b>${escapeTelegramHtml(shortTitle)}</b>\n${escapeTelegramHtml(shortBody)}\n\n<a href="${escapeTelegramHtml(url)}">${escapeTelegramHtml(linkLabel)}</a>`,
    parse_mode: 'HTML',
  };
}

/** `**title**`, the body, and the link in angle brackets (a link without a preview embed). */
export function discordContent(title: string, body: string, link: string): string {
  const url = checkedLink(link);
  const shortTitle = shortenToFit(title, (t) => Array.from(t).length <= TITLE_LIMIT);
  const build = (b: string) => `**${escapeDiscordMarkdown(shortTitle)}**\n${escapeDiscordMarkdown(b)}\n<${url}>`;
  const shortBody = shortenToFit(body, (b) => Array.from(build(b)).length <= DISCORD_CONTENT_LIMIT);
  return build(shortBody);
}
