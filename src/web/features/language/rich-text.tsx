import { cloneElement, type ReactElement, type ReactNode } from 'react';

const TAG = /<(\d+)>(.*?)<\/\1>|<(\d+)\/>/g;

/**
 * A translated message with elements inside it (decision 0326): `<0>terms</0>` in the message puts
 * "terms", as the translator placed and worded it, inside `elements[0]` (a link, say). Tags do not nest.
 * The app's own stand-in for Lingui's `<Trans>`, which would bring @lingui/react into the entry.
 */
export function RichText({ message, elements }: { message: string; elements: readonly ReactElement[] }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of message.matchAll(TAG)) {
    if (match.index > last) parts.push(message.slice(last, match.index));
    const index = Number(match[1] ?? match[3]);
    const element = elements[index];
    const inner = match[2];
    if (element) parts.push(cloneElement(element, { key: `${index}-${match.index}` }, inner));
    else if (inner !== undefined) parts.push(inner);
    last = match.index + match[0].length;
  }
  if (last < message.length) parts.push(message.slice(last));
  return <>{parts}</>;
}
