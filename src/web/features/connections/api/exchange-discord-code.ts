import type { DiscordIdentityDto } from '#shared/schemas/connections';
import { api } from '#web/lib/api-client';

/** docs/product.md#api: POST /api/auth/discord-exchange; the state goes along so the server can check it. */
export function exchangeDiscordCode(code: string, state: string | null): Promise<Partial<DiscordIdentityDto> | undefined> {
  return api.post<Partial<DiscordIdentityDto> | undefined>('/api/auth/discord-exchange', { code, state: state ?? '' });
}
