/** Payment calls of spec section 7, with the error messages of spec section 8. */
import type { LedgerHistoryResponse } from '#shared/schemas/credits';
import type {
  CryptoOption,
  CryptosResponse,
  DepositLimits,
  DepositResponse,
  MyPaymentsResponse,
  Payment,
  PaymentDetailResponse,
  PaymentStatusResponse,
} from '#shared/schemas/payments';
import { api, ApiError } from '#web/lib/api-client';

export const PAYMENT_MESSAGES = {
  status: 'Failed to check payment status',
  cryptos: 'Failed to fetch crypto options',
  deposit: 'Failed to create deposit',
  check: 'Failed to check payment',
  mine: 'Failed to fetch my payments',
} as const;

/** An error with the spec's message, keeping the server's own reason (if any) for the details line. */
export class PaymentCallError extends Error {
  constructor(
    message: string,
    readonly reason: string | null,
    readonly status: number,
    readonly fieldErrors: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'PaymentCallError';
  }
}

function wrap(message: string, err: unknown): PaymentCallError {
  if (err instanceof ApiError) return new PaymentCallError(message, err.fromServer ? err.message : null, err.status, err.fieldErrors);
  return new PaymentCallError(message, null, 0);
}

export async function getPaymentStatus(id: string): Promise<PaymentStatusResponse['paymentData']> {
  try {
    const res = await api.get<PaymentStatusResponse>(`/api/payments/${encodeURIComponent(id)}/status`);
    if (!res?.success) throw new Error('unsuccessful');
    return res.paymentData;
  } catch (err) {
    throw wrap(PAYMENT_MESSAGES.status, err);
  }
}

/** Spec section 8: on failure the list is empty and the error says so. */
export async function fetchCryptoOptions(): Promise<{ cryptos: CryptoOption[]; limits: DepositLimits | null; error: string | null }> {
  try {
    const res = await api.get<CryptosResponse>('/api/payments/cryptos');
    return { cryptos: res.cryptos ?? [], limits: res.limits ?? null, error: null };
  } catch {
    return { cryptos: [], limits: null, error: PAYMENT_MESSAGES.cryptos };
  }
}

export async function createDeposit(crypto: string, amount: number): Promise<Payment> {
  try {
    const res = await api.post<DepositResponse>('/api/payments/deposit', { crypto, amount });
    return res.payment;
  } catch (err) {
    throw wrap(PAYMENT_MESSAGES.deposit, err);
  }
}

export async function checkPayment(orderId: string, txHash: string): Promise<PaymentStatusResponse['paymentData']> {
  try {
    const res = await api.post<PaymentStatusResponse>('/api/payments/check', { orderId, txHash });
    return res.paymentData;
  } catch (err) {
    throw wrap(PAYMENT_MESSAGES.check, err);
  }
}

/** Spec section 8: on failure the list is empty and the error says so. */
export async function fetchMyPayments(
  query: { page?: number; pageSize?: number; status?: string } = {},
): Promise<MyPaymentsResponse & { error: string | null }> {
  const params = new URLSearchParams();
  if (query.page) params.set('page', String(query.page));
  if (query.pageSize) params.set('pageSize', String(query.pageSize));
  if (query.status) params.set('status', query.status);
  const qs = params.toString();
  try {
    const res = await api.get<MyPaymentsResponse>(`/api/payments/mine${qs ? `?${qs}` : ''}`);
    return { ...res, error: null };
  } catch {
    return { payments: [], page: query.page ?? 1, pageSize: query.pageSize ?? 20, total: 0, error: PAYMENT_MESSAGES.mine };
  }
}

export function getPayment(id: string): Promise<PaymentDetailResponse> {
  return api.get<PaymentDetailResponse>(`/api/payments/${encodeURIComponent(id)}`);
}

export function fetchLedgerHistory(page: number, pageSize: number): Promise<LedgerHistoryResponse> {
  return api.get<LedgerHistoryResponse>(`/api/credits/history?page=${page}&pageSize=${pageSize}`);
}
