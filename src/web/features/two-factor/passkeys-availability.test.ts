import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '#shared/error-codes';
import { passkeyUnavailableReason } from '#shared/schemas/two-factor';
import { activateLocale } from '#web/features/language';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { passkeyReasonText } from './passkeys-availability';

afterEach(async () => {
  await activateLocale('en');
});

describe('why passkeys cannot work here, in the reader’s language', () => {
  const reason = passkeyUnavailableReason('[::1]')!;

  it('reads as the server words it in English', async () => {
    await activateLocale('en');
    expect(passkeyReasonText(reason)).toBe(reason);
    expect(passkeyReasonText('Something else')).toBe('Something else');
  });

  it('words the server’s reason (the passkey list, the PASSKEYS_UNAVAILABLE refusal) in the language, the address kept', async () => {
    await activateLocale('es');
    const spanish = passkeyReasonText(passkeyUnavailableReason('192.168.1.7')!);
    expect(spanish).toMatch(/^Las llaves de acceso necesitan un nombre de dominio/);
    expect(spanish).toContain('(192.168.1.7)');
    await activateLocale('de');
    expect(passkeyReasonText(reason)).toContain('(::1)');
    expect(passkeyReasonText(reason)).not.toContain('Passkeys need');
    const refused = new ApiError(503, reason, ErrorCode.PASSKEYS_UNAVAILABLE, { host: '::1' });
    expect(errorMessage(refused, 'Failed')).toBe(passkeyReasonText(reason));
  });
});
