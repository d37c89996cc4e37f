import { plural, t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { referralSettingsSchema, type ReferralSettings, type ReferralSettingsChange } from '#shared/schemas/referrals';
import { TextField } from '#web/components/ui/forms';
import { QueryState } from '#web/components/ui/query-state';
import { Form, FormError, StatusButton, useForm } from '#web/components/ui/use-form';
import { useLocale } from '#web/features/language';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { errorMessage } from '#web/lib/api-client';
import { formatCredits, formatLocaleDateTime } from '#web/lib/format';
import { useReferralSettings, useSaveReferralSettings } from '../api/admin-referrals';
import { creditsLabel, sharePercent } from './labels';

type Key = keyof ReferralSettings;
type Values = Record<Key, string>;
type Kind = 'percent' | 'days' | 'credits';

/** Each setting, how it is typed (a percentage, days, credits) and its bounds in those units. */
const FIELDS: ReadonlyArray<{ key: Key; kind: Kind; min: number; max: number | null; label: () => string; note: () => string }> = [
  {
    key: 'shareBasisPoints',
    kind: 'percent',
    min: 0,
    max: 50,
    label: () => t`Share of each top-up (%)`,
    note: () => t`What the referrer earns of each cleared top-up; 0 to 50%.`,
  },
  {
    key: 'rewardDays',
    kind: 'days',
    min: 1,
    max: 3650,
    label: () => t`Earning period (days)`,
    note: () => t`For how long after joining a person's top-ups earn their referrer a share.`,
  },
  {
    key: 'capPerReferredCents',
    kind: 'credits',
    min: 0,
    max: null,
    label: () => t`Most per person invited (credits)`,
    note: () => t`What one invited person can earn their referrer in all.`,
  },
  {
    key: 'holdDays',
    kind: 'days',
    min: 0,
    max: 365,
    label: () => t`Held for (days)`,
    note: () => t`How long a reward waits before it can be spent; 0 pays it at once.`,
  },
  {
    key: 'dailyCapCents',
    kind: 'credits',
    min: 0,
    max: null,
    label: () => t`Most per referrer a day (credits)`,
    note: () => t`Counted by UTC day.`,
  },
  {
    key: 'lifetimeCapCents',
    kind: 'credits',
    min: 0,
    max: null,
    label: () => t`Most per referrer in all (credits)`,
    note: () => t`Across every person they invite.`,
  },
  {
    key: 'welcomeBonusCents',
    kind: 'credits',
    min: 0,
    max: null,
    label: () => t`Welcome bonus (credits)`,
    note: () => t`Paid once to the invited person on their first cleared top-up; 0 for none.`,
  },
];

/** The settings as the form shows them: a percentage, whole days, credits with two decimals. */
function toValues(s: ReferralSettings): Values {
  const out = {} as Values;
  for (const f of FIELDS) {
    const v = s[f.key];
    out[f.key] = f.kind === 'percent' ? String(v / 100) : f.kind === 'credits' ? formatCredits(v) : String(v);
  }
  return out;
}

const DECIMAL = /^\d+(?:[.,]\d{1,2})?$/;
const WHOLE = /^\d+$/;

/** The typed values back as settings, or the field errors (in the language on screen). */
export function parseSettings(values: Values): { settings: ReferralSettings } | { errors: Partial<Record<Key, string>> } {
  const errors: Partial<Record<Key, string>> = {};
  const settings = {} as ReferralSettings;
  for (const f of FIELDS) {
    const text = values[f.key].trim();
    const min = f.min;
    const max = f.max ?? Number.MAX_SAFE_INTEGER;
    if (f.kind === 'days') {
      const n = Number(text);
      if (!WHOLE.test(text)) errors[f.key] = t`Enter a whole number of days`;
      else if (n < min || n > max) errors[f.key] = t`Enter between ${min} and ${max} days`;
      else settings[f.key] = n;
      continue;
    }
    const n = Number(text.replace(',', '.'));
    if (!DECIMAL.test(text)) {
      errors[f.key] = f.kind === 'percent' ? t`Enter a percentage with at most two decimals` : t`Enter an amount with at most two decimals`;
    } else if (n < min || n > max) {
      errors[f.key] = t`Enter a percentage between ${min} and ${max}`;
    } else settings[f.key] = Math.round(n * 100);
  }
  if (Object.keys(errors).length > 0) return { errors };
  // The contract's own bounds, should the form's ever drift from them.
  const parsed = referralSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    const key = (parsed.error.issues[0]?.path[0] as Key | undefined) ?? 'shareBasisPoints';
    return { errors: { [key]: parsed.error.issues[0]?.message ?? t`Check this value` } };
  }
  return { settings: parsed.data };
}

/** One setting's value in words: "10%", "90 days", "50.00 credits". */
function describe(key: Key, value: number): string {
  const field = FIELDS.find((f) => f.key === key)!;
  if (field.kind === 'percent') return sharePercent(value);
  if (field.kind === 'days') return plural(value, { one: '# day', other: '# days' });
  return creditsLabel(value);
}

/** What a change changed against the one before it; the first change lists every setting. */
export function changeSummary(change: ReferralSettingsChange, before: ReferralSettingsChange | undefined): string[] {
  return FIELDS.filter((f) => !before || before.settings[f.key] !== change.settings[f.key]).map((f) => {
    const label = f.label();
    const to = describe(f.key, change.settings[f.key]);
    if (!before) return t`${label}: ${to}`;
    const from = describe(f.key, before.settings[f.key]);
    return t`${label}: ${from} → ${to}`;
  });
}

function SettingsForm({ settings }: { settings: ReferralSettings }) {
  useLocale();
  const id = useId();
  const save = useSaveReferralSettings();
  // Changing what the programme pays asks for the admin's second factor, when they have one.
  const stepUp = useStepUp();
  const [values, setValues] = useState<Values>(() => toValues(settings));

  const form = useForm<Key>({
    validate: () => {
      const result = parseSettings(values);
      return 'errors' in result ? result.errors : {};
    },
    action: async () => {
      const next = parseSettings(values);
      if ('errors' in next) return;
      await save.mutateAsync({ ...next.settings, ...stepUp.fields() });
      stepUp.reset();
      toast.success(t`Referral settings saved.`);
    },
    onError: (err) => stepUp.handleError(err),
    formError: (err, fields) => (Object.keys(fields).length > 0 ? null : errorMessage(err, t`Could not save the referral settings`)),
  });

  return (
    <Form form={form} aria-labelledby={`${id}-title`} className="stack">
      <h3 id={`${id}-title`}>{t`Settings`}</h3>
      <FormError form={form} />
      <div className="referral-settings-grid">
        {FIELDS.map((f) => (
          <TextField
            key={f.key}
            id={`${id}-${f.key}`}
            name={f.key}
            label={f.label()}
            note={f.note()}
            inputMode={f.kind === 'days' ? 'numeric' : 'decimal'}
            autoComplete="off"
            value={values[f.key]}
            onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
            error={form.errors[f.key]}
          />
        ))}
      </div>
      <StepUpField stepUp={stepUp} disabled={form.busy} />
      <div className="actions">
        <StatusButton busy={form.busy} busyLabel={t`Saving…`} className="btn btn-primary">
          {t`Save settings`}
        </StatusButton>
      </div>
    </Form>
  );
}

function History({ history }: { history: ReferralSettingsChange[] }) {
  useLocale();
  const id = useId();
  const title = t`Changes`;
  return (
    <section aria-labelledby={`${id}-title`} className="stack">
      <h3 id={`${id}-title`}>{title}</h3>
      {history.length === 0 ? (
        <p className="empty-state">{t`The settings have not been changed yet: these are the defaults.`}</p>
      ) : (
        <div className="table-wrap rtable-wrap">
          <table className="admin-table rtable" aria-label={title}>
            <thead>
              <tr>
                <th scope="col">{t`When`}</th>
                <th scope="col">{t`Who`}</th>
                <th scope="col">{t`What`}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((change, i) => (
                <tr key={change._id}>
                  <td data-label={t`When`}>{formatLocaleDateTime(change.changedAt)}</td>
                  <td data-label={t`Who`}>{change.changedBy?.username ?? t`Defaults`}</td>
                  <td data-label={t`What`}>
                    <ul className="referral-changes">
                      {changeSummary(change, history[i + 1]).map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The programme's settings (admins), the form keyed by what the server holds, and who changed what when. */
export function ReferralSettingsPanel() {
  useLocale();
  const id = useId();
  const data = useReferralSettings();
  return (
    <section className="admin-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Programme settings`}</h2>
      <p className="muted">{t`Every change is kept below, with who made it and when.`}</p>
      <QueryState
        data={data.data}
        loading={t`Loading the settings…`}
        error={data.error ? errorMessage(data.error, t`Failed to load the referral settings`) : null}
        onRetry={() => void data.refetch()}
      >
        {(d) => (
          <>
            <SettingsForm key={JSON.stringify(d.settings)} settings={d.settings} />
            <History history={d.history} />
          </>
        )}
      </QueryState>
    </section>
  );
}
