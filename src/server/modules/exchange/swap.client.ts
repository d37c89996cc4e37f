/**
 * Client for a ChangeNOW-style swap API, v1 (docs/providers.md): the API key travels in the path of the
 * transaction calls, the base URL is configuration (the real API or the imitation mounted on this
 * server). The real API has no webhooks: status comes from asking (`transaction`).
 */

export interface SwapCurrency {
  ticker: string;
  name: string;
  image?: string | null;
  hasExternalId?: boolean;
  isFiat?: boolean;
  featured?: boolean;
  isStable?: boolean;
  supportsFixedRate?: boolean;
  [key: string]: unknown;
}

export interface SwapEstimate {
  estimatedAmount: number;
  transactionSpeedForecast?: string | null;
  warningMessage?: string | null;
}

/** A fixed-rate estimate: the quote id and until when the provider honours it. */
export interface SwapFixedEstimate extends SwapEstimate {
  rateId: string;
  validUntil: string;
}

/** `GET /exchange-range/...`: the pair's limits; `maxAmount` null means no upper limit. */
export interface SwapRange {
  minAmount: number;
  maxAmount: number | null;
}

export interface CreateSwapInput {
  from: string;
  to: string;
  address: string;
  amount: number;
  extraId?: string;
  refundAddress?: string;
  refundExtraId?: string;
}

export interface CreateFixedSwapInput extends CreateSwapInput {
  rateId: string;
}

export interface SwapCreated {
  id: string;
  payinAddress: string;
  payoutAddress: string;
  payoutExtraId?: string | null;
  payinExtraId?: string | null;
  fromCurrency: string;
  toCurrency: string;
  amount: number;
  [key: string]: unknown;
}

export interface SwapTransaction {
  id: string;
  status: string;
  payinAddress?: string;
  payoutAddress?: string;
  payinExtraId?: string | null;
  payoutExtraId?: string | null;
  fromCurrency?: string;
  toCurrency?: string;
  expectedSendAmount?: number | null;
  expectedReceiveAmount?: number | null;
  amountSend?: number | null;
  amountReceive?: number | null;
  payinHash?: string | null;
  payoutHash?: string | null;
  createdAt?: string;
  updatedAt?: string;
  [key: string]: unknown;
}

export class SwapProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The provider's error code (`not_valid_address`, `out_of_range`, `pair_is_inactive`...). */
    readonly code: string | null,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'SwapProviderError';
  }
}

export interface SwapClientOptions {
  apiKey: string;
  /** Resolved per call: the sandbox's address is known only once the server listens. */
  baseUrl: () => string;
  timeoutMs?: number;
}

export class SwapClient {
  constructor(private readonly options: SwapClientOptions) {}

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const url = `${this.options.baseUrl()}${path}`;
    // The key is part of some paths: never let it reach a log or an error message.
    const safePath = path.split(this.key).join('<key>').split('?')[0];
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : null,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new SwapProviderError(`Swap provider unreachable: ${(err as Error).message}`, 0, null, null);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      throw new SwapProviderError(`Swap provider answered ${res.status} with a non-JSON body`, res.status, null, text.slice(0, 200));
    }
    if (!res.ok) {
      const err = (json ?? {}) as { error?: unknown; message?: unknown };
      const code = typeof err.error === 'string' ? err.error : null;
      const message = typeof err.message === 'string' ? err.message : `HTTP ${res.status}`;
      throw new SwapProviderError(`Swap provider ${method} ${safePath} failed: ${message}`, res.status, code, json);
    }
    return json as T;
  }

  private get key(): string {
    return encodeURIComponent(this.options.apiKey);
  }

  currencies(): Promise<SwapCurrency[]> {
    return this.request('GET', '/currencies?active=true');
  }

  async minAmount(from: string, to: string): Promise<number> {
    const body = await this.request<{ minAmount: number }>('GET', `/min-amount/${encodeURIComponent(`${from}_${to}`)}?api_key=${this.key}`);
    return Number(body.minAmount);
  }

  estimate(amount: number, from: string, to: string): Promise<SwapEstimate> {
    return this.request(
      'GET',
      `/exchange-amount/${encodeURIComponent(String(amount))}/${encodeURIComponent(`${from}_${to}`)}?api_key=${this.key}`,
    );
  }

  createTransaction(input: CreateSwapInput): Promise<SwapCreated> {
    return this.request('POST', `/transactions/${this.key}`, input);
  }

  /** The pair's minimum and maximum (`/exchange-range/{from}_{to}`, or its `fixed-rate/` twin). */
  async range(from: string, to: string, fixed: boolean): Promise<SwapRange> {
    const body = await this.request<{ minAmount: unknown; maxAmount: unknown }>(
      'GET',
      `/exchange-range/${fixed ? 'fixed-rate/' : ''}${encodeURIComponent(`${from}_${to}`)}?api_key=${this.key}`,
    );
    const max = body.maxAmount === null || body.maxAmount === undefined ? null : Number(body.maxAmount);
    return { minAmount: Number(body.minAmount), maxAmount: max !== null && Number.isFinite(max) ? max : null };
  }

  /** A fixed-rate quote with its `rateId` (`useRateId=true`), honoured until `validUntil`. */
  fixedEstimate(amount: number, from: string, to: string): Promise<SwapFixedEstimate> {
    return this.request(
      'GET',
      `/exchange-amount/fixed-rate/${encodeURIComponent(String(amount))}/${encodeURIComponent(`${from}_${to}`)}?api_key=${this.key}&useRateId=true`,
    );
  }

  /** Creates an exchange at the rate of a fixed-rate quote (`rateId`), refused once the quote expired. */
  createFixedTransaction(input: CreateFixedSwapInput): Promise<SwapCreated> {
    return this.request('POST', `/transactions/fixed-rate/${this.key}`, input);
  }

  transaction(id: string): Promise<SwapTransaction> {
    return this.request('GET', `/transactions/${encodeURIComponent(id)}/${this.key}`);
  }
}
