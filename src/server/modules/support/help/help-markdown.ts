import MarkdownIt from 'markdown-it';

/**
 * Articles are Markdown written by staff, shown to everyone: rendered here with raw HTML off (a `<script>`
 * in the text comes out as text), no images (the page loads nothing from elsewhere), and links only to
 * http(s), mailto or a path of ours; outside links open without passing on the page or its referrer
 * (docs/decisions/0290).
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false }).disable(['image']);

const SAFE_LINK = /^(?:https?:\/\/|mailto:|\/(?!\/)|#)/i;
markdown.validateLink = (url: string) => SAFE_LINK.test(url.trim());

const defaultLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  const href = String(token.attrGet('href') ?? '');
  if (/^https?:\/\//i.test(href)) {
    token.attrSet('rel', 'nofollow noopener noreferrer');
    token.attrSet('target', '_blank');
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderHelpMarkdown(source: string): string {
  return markdown.render(source);
}

/** The first words of an article as plain text, for lists and suggestions. */
export function helpExcerpt(source: string, max = 180): string {
  const text = source
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`>#~|]/g, '')
    .replace(/^\s*\d+\.\s+/gm, '')
    .replace(/^\s*[-+]\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.,;:]+$/, '')}…`;
}
