import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { Dialog } from '#web/components/ui/dialog';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import { ErrorCode } from '#shared/error-codes';
import type { CatalogueItem, InsufficientCreditsDetails, PriceChangedDetails, PurchaseResponse } from '#shared/schemas/catalogue';
import { topUpLink } from '#web/features/payments';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useBuyItem } from '../api/buy-item';
import { creditsLabel } from '../lib/format';
import { newIdempotencyKey } from '#web/lib/idempotency-key';
import { formatLocaleCredits } from '#web/lib/format';
import { useLocale } from '#web/features/language';

interface BuyDialogProps {
  item: CatalogueItem;
  /** The balance the session shows (refreshed when the dialog opens). */
  balanceCents: number;
  onClose: () => void;
  /** The purchase went through: the section says so beside the catalogue (decision 0239). */
  onBought?: (result: PurchaseResponse) => void;
}

/** What a purchase's success says, in the toast and the section's status line. */
export function purchaseSentence(result: PurchaseResponse): string {
  const item = result.order.itemName;
  const price = formatLocaleCredits(result.order.priceCents);
  const balance = formatLocaleCredits(result.balanceCents);
  return t`Bought ${item} for ${price} credits. Balance: ${balance} credits.`;
}

function shortfallOf(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.code !== ErrorCode.INSUFFICIENT_CREDITS) return null;
  const details = err.details as Partial<InsufficientCreditsDetails> | null;
  return typeof details?.shortfallCents === 'number' ? details.shortfallCents : null;
}

/** The price now, when the server refused because the item's price changed (decision 0210). */
function changedPriceOf(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.code !== ErrorCode.PRICE_CHANGED) return null;
  const details = err.details as Partial<PriceChangedDetails> | null;
  return typeof details?.priceCents === 'number' ? details.priceCents : null;
}

/**
 * The confirmation step of a purchase: the price and the balance after it, or what is missing and a
 * Top up link carrying it. A native modal <dialog> keeps focus inside and closes on Escape; focus
 * goes back to the Buy button that opened it. One idempotency key per opening, so pressing Confirm
 * twice (or a retry after a lost answer) buys once. The price shown is the price sent: when the server
 * answers that it changed, the dialog shows the new one and asks again (a refused attempt leaves the
 * key unused, so the same key buys at the new price; decision 0210).
 */
export function BuyDialog({ item, balanceCents, onClose, onBought }: BuyDialogProps) {
  const ids = useId();
  useLocale();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const buy = useBuyItem();
  const [serverShortfall, setServerShortfall] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The price this dialog shows and sends; only a PRICE_CHANGED answer moves it (never a background refetch).
  const [priceCents, setPriceCents] = useState(item.priceCents);
  const [priceChanged, setPriceChanged] = useState(false);

  const localShortfall = priceCents > balanceCents ? priceCents - balanceCents : null;
  const shortfall = serverShortfall ?? localShortfall;
  const soldOut = item.stock !== null && item.stock <= 0;

  async function confirm() {
    setError(null);
    try {
      const result = await buy.mutateAsync({ itemId: item._id, expectedPriceCents: priceCents, idempotencyKey });
      toast.success(purchaseSentence(result), { id: `bought-${result.order._id}` });
      onBought?.(result);
      onClose();
    } catch (err) {
      const newPrice = changedPriceOf(err);
      const missing = shortfallOf(err);
      if (newPrice !== null) {
        setPriceCents(newPrice);
        setPriceChanged(true);
        setServerShortfall(null);
      } else if (missing !== null) setServerShortfall(missing);
      else setError(errorMessage(err, t`The purchase failed. Try again.`));
    }
  }

  const name = item.name;
  const price = formatLocaleCredits(priceCents);
  const missing = shortfall === null ? '' : formatLocaleCredits(shortfall);
  return (
    <Dialog className="buy-dialog" aria-labelledby={`${ids}-title`} aria-describedby={`${ids}-summary`} onClose={onClose}>
      <h2 id={`${ids}-title`}>{t`Buy ${name}?`}</h2>
      <dl id={`${ids}-summary`} className="buy-summary">
        <div>
          <dt>{t`Price`}</dt>
          <dd data-testid="buy-price">{creditsLabel(priceCents)}</dd>
        </div>
        <div>
          <dt>{t`Your balance`}</dt>
          <dd data-testid="buy-balance">{creditsLabel(balanceCents)}</dd>
        </div>
        {shortfall === null && (
          <div>
            <dt>{t`Balance after`}</dt>
            <dd data-testid="buy-balance-after">{creditsLabel(balanceCents - priceCents)}</dd>
          </div>
        )}
      </dl>
      {priceChanged && (
        <p className="form-error" role="alert" data-testid="buy-price-changed">
          {t`The price changed to ${price} credits. Buy at the new price?`}
        </p>
      )}
      {shortfall !== null && (
        <div className="form-error buy-shortfall" role="alert">
          <p data-testid="buy-shortfall">{t`Not enough credits: you need ${missing} more.`}</p>
          <Link className="btn btn-secondary" to={topUpLink(shortfall)} onClick={onClose} data-testid="buy-top-up">
            {t`Top up ${missing} credits`}
          </Link>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={buy.isPending || shortfall !== null || soldOut}
          onClick={() => void confirm()}
        >
          {buy.isPending ? t`Buying…` : t`Confirm: pay ${price} credits`}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          {t`Cancel`}
        </button>
      </div>
    </Dialog>
  );
}
