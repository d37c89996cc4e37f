import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useEffect } from 'react';
import { useUiLocale } from './use-ui-locale';

export const SITE_NAME = 'Olympus';
/** The site's description, translated where it is written (decision 0326). */
export const DEFAULT_DESCRIPTION_MESSAGE = msg`Olympus: top up credits in crypto, swap coins and earn rewards, get support fast.`;
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
 * site defaults, so a page that sets nothing never inherits the previous page's title. The caller passes
 * text already translated (`t`), and the hook follows a change of language (decision 0326).
 */
export function usePageMeta(title: string, description?: string): void {
  const locale = useUiLocale();
  useEffect(() => {
    document.title = formatTitle(title);
    descriptionTag().content = description ?? i18n._(DEFAULT_DESCRIPTION_MESSAGE);
    return () => {
      document.title = SITE_NAME;
      descriptionTag().content = i18n._(DEFAULT_DESCRIPTION_MESSAGE);
    };
  }, [title, description, locale]);
}
