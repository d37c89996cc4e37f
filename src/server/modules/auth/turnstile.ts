import type { TurnstileConfig } from '#server/config.js';
import { AppError } from '#server/errors.js';

interface SiteverifyResponse {
  success: boolean;
  'error-codes'?: string[];
}

/**
 * Server-side check of a Turnstile token (docs/providers.md: POST siteverify with secret and response).
 * `baseUrl` is the provider's base, or this server's own sandbox.
 */
export async function verifyTurnstileToken(
  config: TurnstileConfig,
  baseUrl: string,
  token: string,
  remoteIp: string | undefined,
): Promise<void> {
  let body: SiteverifyResponse;
  try {
    const res = await fetch(`${baseUrl}/v0/siteverify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret: config.secret, response: token, ...(remoteIp ? { remoteip: remoteIp } : {}) }),
      signal: AbortSignal.timeout(5000),
    });
    body = (await res.json()) as SiteverifyResponse;
  } catch {
    throw new AppError('BOT_CHECK_UNAVAILABLE', 'The bot check could not be verified right now. Please try again.');
  }
  if (!body.success) {
    throw new AppError('BOT_CHECK_FAILED', 'The bot check failed. Please try again.', {
      details: { fields: { turnstileToken: 'The bot check failed. Please try again.' } },
    });
  }
}
