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
