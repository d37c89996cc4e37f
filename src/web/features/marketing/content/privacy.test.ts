import { describe, expect, it } from 'vitest';
import { ACCOUNT_ERASURE_DELAY_DAYS } from '#shared/constants';
import '#web/features/language';
import { privacyPolicy } from './privacy';

const sectionText = (id: string) => JSON.stringify(privacyPolicy().sections.find((s) => s.id === id)?.blocks ?? null);

describe('the privacy policy says what the product does', () => {
  it('gives the same delay before a closed account is erased as the erasure job uses, and the way back', () => {
    const retention = sectionText('retention');
    expect(retention).toContain(`erased ${ACCOUNT_ERASURE_DELAY_DAYS} days later`);
    expect(retention).toContain('signing in lets you restore it');
  });

  it('points to the self-service rights in settings', () => {
    expect(sectionText('your-rights')).toContain('download a copy of your data and close your account yourself, in Settings, Privacy');
  });
});
