/**
 * Plugs the guest claims flow (docs/product.md#guest-claims) into the session's sign-in hook. Imported once at app
 * start; the flow itself (and the toast library) loads only when there are stored claims to redeem.
 */
import { onUserLogin } from '#web/features/auth';
import { hasStoredClaims } from './lib/reward-claims';

let registered = false;

export function registerRewardRedemption(): void {
  if (registered) return;
  registered = true;
  onUserLogin(async (user) => {
    if (!hasStoredClaims()) return;
    const { redeemPendingGuestRewards } = await import('./lib/redeem-guest-rewards');
    await redeemPendingGuestRewards(user._id);
  });
}
