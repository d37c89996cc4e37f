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

/** Which fields an address check reports on, and what the address is for. */
interface AddressFields {
  currencyField: string;
  address: string;
  extraId: string;
  /** "payouts", "refunds": used in "XRP payouts take no memo". */
  purpose: string;
  /** " refund" in "That is not a valid BTC refund address". */
  label: string;
}

const PAYOUT_FIELDS: AddressFields = {
  currencyField: 'to',
  address: 'payoutAddress',
  extraId: 'payoutExtraId',
  purpose: 'payouts',
  label: '',
};
const REFUND_FIELDS: AddressFields = {
  currencyField: 'from',
  address: 'refundAddress',
  extraId: 'refundExtraId',
  purpose: 'refunds',
  label: ' refund',
};

/** Field messages for an address and memo in `ticker`; empty when both are acceptable. */
function checkAddress(ticker: string, address: string, extraId: string | undefined, fields: AddressFields): Record<string, string> {
  const currency = supportedCurrency(ticker);
  const problems: Record<string, string> = {};
  if (!currency) return { [fields.currencyField]: 'That currency is not available' };
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
  if (!valid) problems[fields.address] = `That is not a valid ${ticker.toUpperCase()}${fields.label} address`;
  if (extraId !== undefined && extraId !== '') {
    if (!currency.extraId) problems[fields.extraId] = `${ticker.toUpperCase()} ${fields.purpose} take no memo`;
    else if (!currency.extraId.pattern.test(extraId)) {
      problems[fields.extraId] = `The ${currency.extraId.name.toLowerCase()} must be ${currency.extraId.hint}`;
    }
  }
  return problems;
}

/** Field messages for a payout address and memo in `ticker` (the `to` currency); empty when both are acceptable. */
export function checkPayout(ticker: string, address: string, extraId: string | undefined): Record<string, string> {
  return checkAddress(ticker, address, extraId, PAYOUT_FIELDS);
}

/**
 * Field messages for a refund address and memo in `ticker` (the `from` currency: the provider sends
 * back what it received), checked exactly as payout addresses are; empty when both are acceptable.
 */
export function checkRefund(ticker: string, address: string, extraId: string | undefined): Record<string, string> {
  const problems = checkAddress(ticker, address, extraId, REFUND_FIELDS);
  return problems;
}
