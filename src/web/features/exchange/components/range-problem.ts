import { t } from '@lingui/core/macro';
// The messages below need the active language, which the language module sets up on import (decision 0326).
import '#web/features/language';
import { formatLocaleCrypto } from '#web/lib/format';

/** The message for an amount outside a pair's limits, as the server words it; null when inside. */
export function rangeProblem(amount: number, min: string, max: string | null, ticker: string): string | null {
  const coin = ticker.toUpperCase();
  const tooSmall = amount < Number(min);
  const tooLarge = max !== null && amount > Number(max);
  if (!tooSmall && !tooLarge) return null;
  const least = formatLocaleCrypto(min);
  if (max === null) return t`The minimum for this pair is ${least} ${coin}`;
  const most = formatLocaleCrypto(max);
  return t`The amount must be between ${least} ${coin} and ${most} ${coin} for this pair`;
}

/** A pair's limits as shown before an amount is typed, in the page's language: "Min 0.001 BTC · Max 2 BTC". */
export function limitsText(min: string, max: string | null, ticker: string): string {
  const coin = ticker.toUpperCase();
  const least = formatLocaleCrypto(min);
  if (max === null) return t`Min ${least} ${coin}`;
  const most = formatLocaleCrypto(max);
  return t`Min ${least} ${coin} · Max ${most} ${coin}`;
}
