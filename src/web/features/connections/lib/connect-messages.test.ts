import { describe, expect, it } from 'vitest';
import { ApiError, NETWORK_MESSAGE } from '#web/lib/api-client';
import { connectErrorMessage } from './connect-messages';

describe('connect error messages (docs/product.md#errors)', () => {
  it("prefixes the server's own message", () => {
    const err = new ApiError(409, 'This Discord account is already connected to another user.', 'CONNECTION_TAKEN');
    expect(connectErrorMessage(err, 'Error', 'Failed to connect Discord account')).toBe(
      'Error: This Discord account is already connected to another user.',
    );
    expect(connectErrorMessage(err, 'Server error', 'x')).toBe('Server error: This Discord account is already connected to another user.');
  });

  it('uses details or error_description when the answer has no error field', () => {
    expect(connectErrorMessage(new ApiError(502, 'Request failed with status 502', 'HTTP_ERROR', 'upstream said no'), 'Error', 'x')).toBe(
      'Error: upstream said no',
    );
    expect(
      connectErrorMessage(
        new ApiError(400, 'Request failed with status 400', 'HTTP_ERROR', { error_description: 'Invalid "code" in request.' }),
        'Error',
        'x',
      ),
    ).toBe('Error: Invalid "code" in request.');
  });

  it('says there was no response when nothing came back, timeouts included', () => {
    expect(connectErrorMessage(new ApiError(0, NETWORK_MESSAGE, 'NETWORK_ERROR'), 'Error', 'x')).toBe(
      'No response from server. Please check your connection.',
    );
    expect(connectErrorMessage(new ApiError(0, 'timed out', 'TIMEOUT'), 'Server error', 'x')).toBe(
      'No response from server. Please check your connection.',
    );
  });

  it('falls back to the catalogue text for a failure outside the API', () => {
    expect(connectErrorMessage(new Error('boom'), 'Error', 'Failed to connect Discord account')).toBe(
      'Error: Failed to connect Discord account',
    );
  });
});
