/**
 * Client for the NOWPayments REST API (docs/providers.md): `x-api-key` on every call, base URL from
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

/** `GET /payment/` (list of payments) query, as documented: page from 0, limit 1-500. */
export interface ListPaymentsQuery {
  limit: number;
  page: number;
  sortBy?: 'created_at' | 'updated_at' | 'payment_id';
  orderBy?: 'asc' | 'desc';
  /** YYYY-MM-DD or an ISO time. */
  dateFrom?: string;
  dateTo?: string;
}

export interface ListPaymentsPage {
  data: NowPaymentsPayment[];
  limit: number;
  page: number;
  pagesCount: number;
  total: number;
}

export interface NowPaymentsClientOptions {
  apiKey: string;
  /** Dashboard login for the JWT that `GET /payment/` needs; without it listing is refused. */
  login?: { email: string; password: string } | null;
  /** Resolved per call: the sandbox's address is known only once the server listens. */
  baseUrl: () => string;
  timeoutMs?: number;
}

/** NOWPayments' JWTs last 5 minutes; ours is renewed a little before. */
const JWT_REUSE_MS = 4 * 60 * 1000;

export class NowPaymentsClient {
  private jwt: { token: string; at: number } | null = null;

  constructor(private readonly options: NowPaymentsClientOptions) {}

  /** Whether the calls guarded by a JWT (listing payments) can be made. */
  get canListPayments(): boolean {
    return Boolean(this.options.login);
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown, bearer?: string): Promise<T> {
    const url = `${this.options.baseUrl()}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          'x-api-key': this.options.apiKey,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
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
  minAmount(
    currencyFrom: string,
    currencyTo: string,
  ): Promise<{ currency_from: string; currency_to: string; min_amount: number; fiat_equivalent?: number }> {
    const q = new URLSearchParams({ currency_from: currencyFrom, currency_to: currencyTo, fiat_equivalent: 'usd' });
    return this.request('GET', `/min-amount?${q}`);
  }

  estimate(
    amount: number,
    currencyFrom: string,
    currencyTo: string,
  ): Promise<{ currency_from: string; amount_from: number; currency_to: string; estimated_amount: number | string }> {
    const q = new URLSearchParams({ amount: String(amount), currency_from: currencyFrom, currency_to: currencyTo });
    return this.request('GET', `/estimate?${q}`);
  }

  createPayment(input: CreatePaymentInput): Promise<NowPaymentsPayment> {
    return this.request('POST', '/payment', input);
  }

  getPayment(paymentId: string): Promise<NowPaymentsPayment> {
    return this.request('GET', `/payment/${encodeURIComponent(paymentId)}`);
  }

  /** `POST /auth` with the dashboard login: a JWT for the guarded calls (never logged). */
  private async token(renew = false): Promise<string> {
    if (!this.options.login) throw new NowPaymentsError('NOWPayments login (email and password) is not configured', 0, null);
    if (!renew && this.jwt && Date.now() - this.jwt.at < JWT_REUSE_MS) return this.jwt.token;
    const body = await this.request<{ token?: string }>('POST', '/auth', this.options.login);
    if (!body?.token) throw new NowPaymentsError('NOWPayments answered /auth without a token', 200, null);
    this.jwt = { token: body.token, at: Date.now() };
    return body.token;
  }

  /** `GET /payment/`: every payment of this API key, a page at a time (needs the JWT). */
  async listPayments(query: ListPaymentsQuery): Promise<ListPaymentsPage> {
    const q = new URLSearchParams({ limit: String(query.limit), page: String(query.page) });
    if (query.sortBy) q.set('sortBy', query.sortBy);
    if (query.orderBy) q.set('orderBy', query.orderBy);
    if (query.dateFrom) q.set('dateFrom', query.dateFrom);
    if (query.dateTo) q.set('dateTo', query.dateTo);
    try {
      return await this.request('GET', `/payment/?${q}`, undefined, await this.token());
    } catch (err) {
      // An expired or revoked JWT: log in again once.
      if (err instanceof NowPaymentsError && (err.status === 401 || err.status === 403))
        return this.request('GET', `/payment/?${q}`, undefined, await this.token(true));
      throw err;
    }
  }
}
