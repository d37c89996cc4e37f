import { formatCredits } from '#shared/fees';
import { dashboardPaths } from '#shared/routes';

/** The query parameter of /dashboard/wallet that pre-fills the top-up form: credits wanted, e.g. `?topup=2.34`. */
export const TOP_UP_PARAM = 'topup';
/** The top-up form's anchor on the wallet page. */
export const TOP_UP_ANCHOR = 'top-up';

/** A link to the wallet's top-up form asking for `creditsCents` more credits (the form adds the fee). */
export function topUpLink(creditsCents: number): string {
  return `${dashboardPaths.wallet}?${TOP_UP_PARAM}=${formatCredits(creditsCents)}#${TOP_UP_ANCHOR}`;
}

/** The credits (cents) a `?topup=` value asks for; null when absent or not a positive amount. */
export function parseTopUpParam(value: string | null): number | null {
  if (!value || !/^\d{1,9}(\.\d{1,2})?$/.test(value)) return null;
  const cents = Math.round(Number(value) * 100);
  return cents > 0 ? cents : null;
}
