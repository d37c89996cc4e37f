import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '#shared/error-codes';
import { activateLocale } from '#web/features/language';
import { ApiError } from '#web/lib/api-client';
import { linkProblem } from './link-result';

afterEach(async () => {
  await activateLocale('en');
});

describe('linkProblem', () => {
  it("says the server's fixed refusal of a link in the page's language", async () => {
    const refused = new ApiError(
      400,
      'This unsubscribe link is not valid. Change your notifications in your settings instead.',
      ErrorCode.TOKEN_INVALID,
    );
    expect(linkProblem(refused).message).toBe('This unsubscribe link is not valid. Change your notifications in your settings instead.');
    await activateLocale('es');
    expect(linkProblem(refused).message).toBe(
      'Este enlace para darse de baja no es válido. Cambia tus notificaciones en tu configuración.',
    );
    expect(linkProblem(new ApiError(400, 'Something else', ErrorCode.TOKEN_INVALID)).message).toBe('Something else');
  });
});
