import WAValidator from 'multicoin-address-validator';

/**
 * The currencies we offer for swaps and how their payout address and memo are checked
 * (docs/decisions/0060-exchange-provider-rewards-and-address-checks.md). Addresses are checked by
 * multicoin-address-validator, checksums included, so a typo is caught before the provider is asked;
 * a currency we cannot check is not offered, whatever the provider lists.
 */
export interface SupportedCurrency {
  /** The validator's currency symbol and, for tokens, the chain whose address format applies. */
  validator: { symbol: string; chainType?: string };
  network: string;
  /** Memo / destination tag rules for currencies that have one. */
  extraId?: { name: string; pattern: RegExp; hint: string };
  /** A USD stablecoin: its amount is its USD value. */
  usdStable?: boolean;
}

/** XRP destination tags are unsigned 32-bit integers. */
const XRP_TAG = { name: 'Destination tag', pattern: /^(?:0|[1-9]\d{0,9})$/, hint: 'a whole number up to 4294967295' };
/** Stellar memos: a text memo of at most 28 bytes, or a numeric id memo. */
const XLM_MEMO = { name: 'Memo', pattern: /^[\x20-\x7E]{1,28}$/, hint: 'at most 28 plain characters' };

export const SUPPORTED_CURRENCIES: Record<string, SupportedCurrency> = {
  btc: { validator: { symbol: 'btc' }, network: 'btc' },
  eth: { validator: { symbol: 'eth' }, network: 'eth' },
  ltc: { validator: { symbol: 'ltc' }, network: 'ltc' },
  usdterc20: { validator: { symbol: 'usdt', chainType: 'erc20' }, network: 'eth', usdStable: true },
  usdttrc20: { validator: { symbol: 'usdt', chainType: 'trc20' }, network: 'trx', usdStable: true },
  usdc: { validator: { symbol: 'usdc' }, network: 'eth', usdStable: true },
  xrp: { validator: { symbol: 'xrp' }, network: 'xrp', extraId: XRP_TAG },
  xlm: { validator: { symbol: 'xlm' }, network: 'xlm', extraId: XLM_MEMO },
  doge: { validator: { symbol: 'doge' }, network: 'doge' },
  trx: { validator: { symbol: 'trx' }, network: 'trx' },
  sol: { validator: { symbol: 'sol' }, network: 'sol' },
};

/** The stablecoin the provider is asked for USD values. */
export const USD_REFERENCE_TICKER = 'usdterc20';

export function supportedCurrency(ticker: string): SupportedCurrency | undefined {
  return Object.hasOwn(SUPPORTED_CURRENCIES, ticker) ? SUPPORTED_CURRENCIES[ticker] : undefined;
}

/** Field messages for a payout address and memo in `ticker`; empty when both are acceptable. */
export function checkPayout(ticker: string, address: string, extraId: string | undefined): Record<string, string> {
  const currency = supportedCurrency(ticker);
  const problems: Record<string, string> = {};
  if (!currency) return { to: 'That currency is not available' };
  const { symbol, chainType } = currency.validator;
  let valid = false;
  try {
    // Mainnet only: a testnet address would lose the coins.
    // chainType (USDT on ERC-20 or TRC-20) is supported by the library but missing from its types.
    const opts = chainType ? ({ networkType: 'prod', chainType } as WAValidator.ValidateOpts) : 'prod';
    valid = WAValidator.validate(address, symbol, opts);
  } catch {
    valid = false;
  }
  if (!valid) problems.payoutAddress = `That is not a valid ${ticker.toUpperCase()} address`;
  if (extraId !== undefined && extraId !== '') {
    if (!currency.extraId) problems.payoutExtraId = `${ticker.toUpperCase()} payouts take no memo`;
    else if (!currency.extraId.pattern.test(extraId)) {
      problems.payoutExtraId = `The ${currency.extraId.name.toLowerCase()} must be ${currency.extraId.hint}`;
    }
  }
  return problems;
}
