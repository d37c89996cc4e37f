import { t } from '@lingui/core/macro';
import { useId } from 'react';
import { LanguageSwitch, useLocale } from '#web/features/language';

/**
 * The language of the product (decision 0326): the same choice as the header's menu. It applies at once,
 * is remembered on this device and stored on the account, so another device starts in it too.
 */
export function LanguagePanel() {
  const id = useId();
  useLocale();
  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Language`}</h2>
      <LanguageSwitch />
      <p className="muted">{t`Saved on your account and on this device.`}</p>
    </section>
  );
}
