import { useEffect } from 'react';

export const SITE_NAME = 'Olympus';
export const DEFAULT_DESCRIPTION = 'Olympus: top up credits in crypto, swap coins and earn rewards, get support fast.';

function descriptionTag(): HTMLMetaElement {
  let tag = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!tag) {
    tag = document.createElement('meta');
    tag.name = 'description';
    document.head.appendChild(tag);
  }
  return tag;
}

/** "Jobs" → "Jobs · Olympus"; an empty title is the bare site name. */
export function formatTitle(title: string): string {
  return title ? `${title} · ${SITE_NAME}` : SITE_NAME;
}

/**
 * Sets the document title and meta description while a page is shown. On unmount both return to the
 * site defaults, so a page that sets nothing never inherits the previous page's title.
 */
export function usePageMeta(title: string, description: string = DEFAULT_DESCRIPTION): void {
  useEffect(() => {
    document.title = formatTitle(title);
    descriptionTag().content = description;
    return () => {
      document.title = SITE_NAME;
      descriptionTag().content = DEFAULT_DESCRIPTION;
    };
  }, [title, description]);
}
