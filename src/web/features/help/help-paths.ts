import { paths } from '#shared/routes';

/** An article's own address. */
export const helpArticlePath = (slug: string) => `${paths.help}/${encodeURIComponent(slug)}`;
