import { i18n } from '@lingui/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientErrorCode, ErrorCode } from '#shared/error-codes';
import { activateLocale } from '#web/features/language';
import { ApiError, errorMessage, NETWORK_MESSAGE } from './api-client';
import { CLIENT_ERROR_MESSAGES, ERROR_MESSAGES, errorMessageFor } from './error-messages';
import './validation-messages';

afterEach(async () => {
  await activateLocale('en');
});

describe('the words for each error code', () => {
  it('has an entry for every code of src/shared/error-codes.ts, and none for codes that do not exist', () => {
    const codes = Object.values(ErrorCode);
    const missing = codes.filter((code) => !Object.hasOwn(ERROR_MESSAGES, code));
    expect(missing).toEqual([]);
    expect(Object.keys(ERROR_MESSAGES).sort()).toEqual([...codes].sort());
  });

  it('words the client codes of a missing answer', () => {
    expect(errorMessageFor(ClientErrorCode.TIMEOUT)).not.toBeNull();
    expect(i18n._(CLIENT_ERROR_MESSAGES.NETWORK_ERROR!)).toBe(NETWORK_MESSAGE);
    expect(errorMessageFor('NO_SUCH_CODE')).toBeNull();
  });

  it("shows a fixed message in the page's language, and the server's own where it carries specifics", async () => {
    const ended = new ApiError(409, 'This campaign has ended and cannot change any more', ErrorCode.CAMPAIGN_ENDED);
    const limited = new ApiError(422, 'Title must be at most 80 characters', ErrorCode.RULE_BROKEN);
    expect(errorMessage(ended, 'Failed')).toBe('This campaign has ended and cannot change any more');
    expect(errorMessage(limited, 'Failed')).toBe('Title must be at most 80 characters');

    await activateLocale('de');
    expect(errorMessage(ended, 'Failed')).toBe('Diese Kampagne ist beendet und kann nicht mehr geändert werden');
    expect(errorMessage(limited, 'Failed')).toBe('Title must be at most 80 characters');
    expect(errorMessage(new ApiError(0, NETWORK_MESSAGE, ClientErrorCode.NETWORK_ERROR), 'Failed')).toBe(
      'Keine Antwort vom Server. Bitte prüfe deine Verbindung.',
    );
    expect(errorMessage(new Error('boom'), 'Failed')).toBe('Failed');

    const invalid = new ApiError(400, 'Invalid request: url: The URL must start with https://', ErrorCode.VALIDATION_ERROR);
    expect(errorMessage(invalid, 'Failed')).toBe('Ungültige Anfrage: url: Die URL muss mit https:// beginnen');
    await activateLocale('en');
    expect(errorMessage(invalid, 'Failed')).toBe('Invalid request: url: The URL must start with https://');
  });
});

describe('errors whose message carries values', () => {
  const fail = (code: string, message: string, details: unknown) => errorMessage(new ApiError(422, message, code, details), 'Failed');

  it('reads as the server words them in English, with the values from the details', async () => {
    await activateLocale('en');
    expect(fail(ErrorCode.RATE_LIMITED, 'Too many requests. Try again in 30 seconds.', { retryAfter: 30 })).toBe(
      'Too many requests. Try again in 30 seconds.',
    );
    expect(
      fail(ErrorCode.INSUFFICIENT_CREDITS, 'Not enough credits: 5.00 more needed', {
        shortfallCents: 500,
        balanceCents: 100,
        priceCents: 600,
      }),
    ).toBe('Not enough credits: 5.00 more needed');
    expect(fail(ErrorCode.AMOUNT_OUT_OF_RANGE, 'Amount must be between 1.00 and 10000.00 USD', { min: 1, max: 10000 })).toBe(
      'Amount must be between 1.00 and 10,000.00 USD',
    );
    expect(
      fail(ErrorCode.AMOUNT_BELOW_MINIMUM, 'x', { minAmount: '0.001', maxAmount: '2', currency: 'BTC', fields: { amount: 'x' } }),
    ).toBe('The amount must be between 0.001 BTC and 2 BTC for this pair');
  });

  it('words them in the language on screen, values formatted as the language writes them', async () => {
    await activateLocale('de');
    expect(fail(ErrorCode.RATE_LIMITED, 'Too many requests. Try again in 30 seconds.', { retryAfter: 30 })).toBe(
      'Zu viele Anfragen. Versuche es in 30 Sekunden erneut.',
    );
    expect(fail(ErrorCode.RATE_LIMITED, 'Too many requests. Try again in 600 seconds.', { retryAfter: 600 })).toBe(
      'Zu viele Anfragen. Versuche es in 10 Minuten erneut.',
    );
    expect(fail(ErrorCode.INSUFFICIENT_CREDITS, 'Not enough credits: 1234.50 more needed', { shortfallCents: 123450 })).toBe(
      'Nicht genug Credits: 1.234,50 fehlen noch',
    );
    expect(fail(ErrorCode.PRICE_CHANGED, 'The price changed to 12.00 credits.', { priceCents: 1200, expectedPriceCents: 1000 })).toMatch(
      /^Der Preis hat sich auf 12,00 Credits geändert/,
    );
    expect(fail(ErrorCode.AMOUNT_OUT_OF_RANGE, 'Amount must be between 1.00 and 10000.00 USD', { min: 1, max: 10000 })).toBe(
      'Der Betrag muss zwischen 1,00 und 10.000,00 USD liegen',
    );
    expect(fail(ErrorCode.AMOUNT_BELOW_PROVIDER_MINIMUM, 'The minimum for BTC is 12.34 USD', { currency: 'BTC', minCents: 1234 })).toBe(
      'Das Minimum für BTC beträgt 12,34 USD',
    );
    expect(fail(ErrorCode.AMOUNT_ABOVE_MAXIMUM, 'x', { minAmount: '0.001', maxAmount: '1500.5', currency: 'ETH' })).toBe(
      'Der Betrag muss für dieses Paar zwischen 0,001 ETH und 1.500,5 ETH liegen',
    );
    expect(fail(ErrorCode.BAD_REQUEST, 'You can keep at most 10 passkeys. Remove one first.', { maxPasskeys: 10 })).toBe(
      'Du kannst höchstens 10 Passkeys behalten. Entferne zuerst einen.',
    );

    await activateLocale('ru');
    expect(fail(ErrorCode.RATE_LIMITED, 'Too many requests. Try again in 2 seconds.', { retryAfter: 2 })).toBe(
      'Слишком много запросов. Повторите попытку через 2 секунды.',
    );
    expect(fail(ErrorCode.EXPORT_ALREADY_REQUESTED, 'x', { nextRequestAt: '2026-11-18T14:05:00.000Z', exportId: 'e' })).toContain('2026');
    expect(fail(ErrorCode.EXPORT_ALREADY_REQUESTED, 'x', { nextRequestAt: '2026-11-18T14:05:00.000Z' })).not.toContain('GMT');

    await activateLocale('es');
    expect(fail(ErrorCode.TICKET_MERGED, 'Ticket #12 is already merged', { ticketNumber: 12 })).toBe(
      'El ticket n.º 12 ya está fusionado con otro ticket',
    );
    expect(fail(ErrorCode.ATTACHMENT_PDF_ACTIVE_CONTENT, 'x', { found: ['JavaScript', 'EmbeddedFile'] })).toContain(
      'JavaScript y archivos incrustados',
    );
  });

  it("keeps the server's message (or the code's fixed words) when the details lack the values", async () => {
    await activateLocale('de');
    expect(fail(ErrorCode.RATE_LIMITED, 'Too many requests. Try again in 30 seconds.', undefined)).toBe(
      'Too many requests. Try again in 30 seconds.',
    );
    expect(fail(ErrorCode.BAD_REQUEST, 'Something else', { fields: {} })).toBe('Something else');
    expect(fail(ErrorCode.CONFLICT, 'Something the server says', { day: 'not a date' })).toBe('Something the server says');
    // A fixed message of the server (./server-messages.ts) in the page's language.
    expect(fail(ErrorCode.CONFLICT, 'That username is taken', { day: 'not a date' })).toBe('Dieser Benutzername ist vergeben');
  });
});
