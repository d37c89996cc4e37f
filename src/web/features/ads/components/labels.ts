import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { AdPlacement } from '#shared/ad-rules';

/** A placement's code as the ads manager lists it: the code in English, words in the other languages. */
const PLACEMENT_CODES: Record<AdPlacement, MessageDescriptor> = {
  'home-banner': msg`home-banner`,
  'patch-notes': msg`patch-notes`,
};

/** A placement in the page's language; one the web does not know is shown as it came. */
export function placementCode(placement: string): string {
  const label = Object.hasOwn(PLACEMENT_CODES, placement) ? PLACEMENT_CODES[placement as AdPlacement] : undefined;
  return label ? i18n._(label) : placement;
}
