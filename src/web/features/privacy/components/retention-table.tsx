import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useId } from 'react';
import { DATA_EXPORT_TTL_DAYS, RETENTION_RULES } from '#shared/schemas/privacy';
import { useLocale } from '#web/features/language';

/**
 * The rules of RETENTION_RULES in the language on screen (decision 0326), by their English `what`; a rule
 * not listed here shows as the shared schema words it.
 */
const RULE_TEXT: Record<string, { what: MessageDescriptor; kept: MessageDescriptor }> = {
  'Your account, balance and settings': { what: msg`Your account, balance and settings`, kept: msg`While your account is open` },
  'Ledger entries, payments, exchanges, orders and charges': {
    what: msg`Ledger entries, payments, exchanges, orders and charges`,
    kept: msg`For good: they are financial records`,
  },
  'Guest sessions and guest tickets': {
    what: msg`Guest sessions and guest tickets`,
    kept: msg`30 days after the guest was last active; never while a guest swap is unfinished or its reward can still be claimed`,
  },
  Sessions: { what: msg`Sessions`, kept: msg`30 days after they end (signed out or expired)` },
  'One-time links and sign-in challenges': { what: msg`One-time links and sign-in challenges`, kept: msg`1 day after they expire` },
  'Webhook deliveries': { what: msg`Webhook deliveries`, kept: msg`30 days after they succeeded or failed for good` },
  'Copies of your data': { what: msg`Copies of your data`, kept: msg`${DATA_EXPORT_TTL_DAYS} days after they are ready` },
  'Request logs': {
    what: msg`Request logs`,
    kept: msg`Not stored in our database: one line per request, without bodies or headers, goes to the server log`,
  },
  'Test (sandbox) provider data': {
    what: msg`Test (sandbox) provider data`,
    kept: msg`30 days after its last change, never while its payment or swap is open`,
  },
  'Rate-limit counters': { what: msg`Rate-limit counters`, kept: msg`1 day` },
};

/** "How long we keep things": the retention table the prune job enforces (README, decision 0251). */
export function RetentionTable() {
  const id = useId();
  useLocale();
  return (
    <div className="stack" role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t`How long we keep things`}</h3>
      <div className="table-wrap rtable-wrap">
        <table className="admin-table rtable retention-table" aria-labelledby={`${id}-title`}>
          <thead>
            <tr>
              <th scope="col">{t`What`}</th>
              <th scope="col">{t`How long`}</th>
            </tr>
          </thead>
          <tbody>
            {RETENTION_RULES.map((rule) => {
              const text = RULE_TEXT[rule.what];
              return (
                <tr key={rule.what}>
                  <td data-label={t`What`}>{text ? i18n._(text.what) : rule.what}</td>
                  <td data-label={t`How long`}>{text ? i18n._(text.kept) : rule.kept}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
