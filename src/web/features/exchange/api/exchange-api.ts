/**
 * The exchange calls (server: src/server/modules/exchange/exchange.routes.ts), typed by the shared
 * schemas. Plain functions: components decide what to show when one fails.
 */
import type {
  ClaimGuestRewardsResponse,
  CreateExchangeBody,
  CreateExchangeResponse,
  EstimateResponse,
  ExchangeCurrenciesResponse,
  ExchangeResponse,
  GuestRewardsStatusResponse,
  MyExchangesResponse,
  RewardClaimInput,
} from '../../../../shared/schemas/exchange';
import { api, type RequestOptions } from '../../../lib/api-client';

export function getExchangeCurrencies(options?: RequestOptions) {
  return api.get<ExchangeCurrenciesResponse>('/api/exchange/currencies', options);
}

export function getExchangeEstimate(query: { from: string; to: string; amount: number }, options?: RequestOptions) {
  const params = new URLSearchParams({ from: query.from, to: query.to, amount: String(query.amount) });
  return api.get<EstimateResponse>(`/api/exchange/estimate?${params}`, options);
}

export function createExchange(body: CreateExchangeBody) {
  return api.post<CreateExchangeResponse>('/api/exchange/exchanges', body);
}

export function getExchange(id: string, options?: RequestOptions) {
  return api.get<ExchangeResponse>(`/api/exchange/exchanges/${encodeURIComponent(id)}`, options);
}

export function listMyExchanges(options?: RequestOptions) {
  return api.get<MyExchangesResponse>('/api/exchange/exchanges?pageSize=10', options);
}

/** POST /api/exchange/guest-rewards-status (spec section 7). */
export function postGuestRewardsStatus(claims: RewardClaimInput[]) {
  return api.post<GuestRewardsStatusResponse>('/api/exchange/guest-rewards-status', { claims });
}

/** POST /api/exchange/claim-guest-rewards (spec section 7): the valid claims and the signed-in user's id. */
export function postClaimGuestRewards(claims: RewardClaimInput[], userId: string) {
  return api.post<ClaimGuestRewardsResponse>('/api/exchange/claim-guest-rewards', { claims, userId });
}
