import { afterEach, describe, expect, it } from 'vitest';
import { createCampaignBodySchema } from '#shared/schemas/ads';
import { passwordSchema } from '#shared/schemas/auth';
import { webhookUrlSchema } from '#shared/schemas/webhooks';
import { activateLocale } from '#web/features/language';
import { KNOWN_VALIDATION_MESSAGES, translateValidationMessage } from './validation-messages';

afterEach(async () => {
  await activateLocale('en');
});

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message ?? '';

describe("the shared schemas' messages in the page's language", () => {
  it('leaves English exactly as the schemas word it', () => {
    for (const message of KNOWN_VALIDATION_MESSAGES) expect(translateValidationMessage(message)).toBe(message);
    expect(translateValidationMessage('Budget must be at least 10.00 credits')).toBe('Budget must be at least 10.00 credits');
    expect(translateValidationMessage('Something else entirely')).toBe('Something else entirely');
  });

  it('knows the messages the schemas actually give', () => {
    const password = firstMessage(passwordSchema.safeParse('short'));
    const url = firstMessage(webhookUrlSchema.safeParse('not a url'));
    expect(KNOWN_VALIDATION_MESSAGES).toContain(password);
    expect(KNOWN_VALIDATION_MESSAGES).toContain(url);
    expect(KNOWN_VALIDATION_MESSAGES).toContain(firstMessage(createCampaignBodySchema.safeParse({})));
  });

  it('translates them, values kept', async () => {
    await activateLocale('de');
    expect(translateValidationMessage('Title is required')).toBe('Titel ist erforderlich');
    expect(translateValidationMessage('Password must be at least 8 characters')).toBe('Das Passwort muss mindestens 8 Zeichen lang sein');
    expect(translateValidationMessage('Budget must be at least 10.00 credits')).toBe('Das Budget muss mindestens 10.00 Credits betragen');
    await activateLocale('es');
    expect(translateValidationMessage('The URL must start with https://')).toBe('La URL debe empezar por https://');
  });
});
