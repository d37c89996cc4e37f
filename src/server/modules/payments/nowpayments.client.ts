/**
 * Client for the NOWPayments REST API (providers.md): `x-api-key` on every call, base URL from
 * configuration (the real API, its sandbox, or the imitation mounted on this server).
 */

export interface NowPaymentsPayment {
  payment_id: number | string;
  payment_status: string;
  pay_address: string;
  price_amount: number;
  price_currency: string;
  pay_amount: number;
  pay_currency: string;
  order_id: string | null;
  order_description?: string | null;
  payin_extra_id?: string | null;
  actually_paid?: number | null;
  actually_paid_at_fiat?: number | null;
  outcome_amount?: number | null;
  outcome_currency?: string | null;
  parent_payment_id?: number | string | null;
  purchase_id?: string | number | null;
  network?: string | null;
  created_at?: string;
  updated_at?: string;
  expiration_estimate_date?: string | null;
  amount_received?: number | null;
  [key: string]: unknown;
}

export interface NowPaymentsFullCurrency {
  code: string;
  name: string;
  enable: boolean;
  network?: string | null;
  extra_id_exists?: boolean;
  logo_url?: string | null;
  [key: string]: unknown;
}

export interface CreatePaymentInput {
  price_amount: number;
  price_currency: string;
  pay_currency: string;
  order_id: string;
  order_description?: string;
  ipn_callback_url?: string;
  is_fixed_rate?: boolean;
  is_fee_paid_by_user?: boolean;
}

export class NowPaymentsError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'NowPaymentsError';
  }
}

export interface NowPaymentsClientOptions {
  apiKey: string;
  /** Resolved per call: the sandbox's address is known only once the server listens. */
  baseUrl: () => string;
  timeoutMs?: number;
}

export class NowPaymentsClient {
  constructor(private readonly options: NowPaymentsClientOptions) {}

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const url = `${this.options.baseUrl()}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          'x-api-key': this.options.apiKey,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : null,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new NowPaymentsError(`NOWPayments unreachable: ${(err as Error).message}`, 0, null);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw new NowPaymentsError(`NOWPayments answered ${res.status} with a non-JSON body`, res.status, text.slice(0, 200));
    }
    if (!res.ok) {
      const message = (json as { message?: string } | null)?.message ?? `HTTP ${res.status}`;
      throw new NowPaymentsError(`NOWPayments ${method} ${path.split('?')[0]} failed: ${message}`, res.status, json);
    }
    return json as T;
  }

  status(): Promise<{ message: string }> {
    return this.request('GET', '/status');
  }

  async currencies(): Promise<string[]> {
    const body = await this.request<{ currencies: string[] }>('GET', '/currencies');
    return body.currencies;
  }

  async fullCurrencies(): Promise<NowPaymentsFullCurrency[]> {
    const body = await this.request<{ currencies: NowPaymentsFullCurrency[] }>('GET', '/full-currencies');
    return body.currencies;
  }

  /** The coins enabled in the merchant's account. */
  async merchantCoins(): Promise<string[]> {
    const body = await this.request<{ selectedCurrencies: string[] }>('GET', '/merchant/coins');
    return body.selectedCurrencies;
  }

  /** Minimum payable amount; `fiat_equivalent` is its USD value. */
  minAmount(currencyFrom: string, currencyTo: string): Promise<{ currency_from: string; currency_to: string; min_amount: number; fiat_equivalent?: number }> {
    const q = new URLSearchParams({ currency_from: currencyFrom, currency_to: currencyTo, fiat_equivalent: 'usd' });
    return this.request('GET', `/min-amount?${q}`);
  }

  estimate(amount: number, currencyFrom: string, currencyTo: string): Promise<{ currency_from: string; amount_from: number; currency_to: string; estimated_amount: number | string }> {
    const q = new URLSearchParams({ amount: String(amount), currency_from: currencyFrom, currency_to: currencyTo });
    return this.request('GET', `/estimate?${q}`);
  }

  createPayment(input: CreatePaymentInput): Promise<NowPaymentsPayment> {
    return this.request('POST', '/payment', input);
  }

  getPayment(paymentId: string): Promise<NowPaymentsPayment> {
    return this.request('GET', `/payment/${encodeURIComponent(paymentId)}`);
  }
}
