import { t } from '@lingui/core/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { useCompleteOnboarding } from '#web/features/auth/mutations';
import { RichText, useLocale } from '#web/features/language';

/** The steps in the language on screen (read at render, so a change of language shows at once). */
const steps = () =>
  [
    {
      title: t`Welcome to Olympus`,
      body: (
        <>
          <p>{t`Your account is ready. From your dashboard you can top up credits, swap crypto, and reach our support team.`}</p>
          <p>{t`This takes three short steps; you can skip them at any time.`}</p>
        </>
      ),
    },
    {
      title: t`How credits work`,
      body: (
        <>
          <p>
            {t`One credit is worth one US dollar. You top up by paying in cryptocurrency; the payment page shows the exact amount and address.`}
          </p>
          <p>
            {t`A small processing fee applies: 5% below $100, 3% from $100 and 1% from $500. Credits arrive once the payment is confirmed on the blockchain.`}
          </p>
        </>
      ),
    },
    {
      title: t`Connect your accounts`,
      body: (
        <>
          <p>{t`Link Discord or Telegram in your settings to get notified and identified faster when you ask for support.`}</p>
          <p>
            <RichText message={t`You can do this now or later from <0>Settings</0>.`} elements={[<Link to={paths.settings} />]} />
          </p>
        </>
      ),
    },
  ] as const;

/** Shown on the dashboard until a new user finishes it; finishing calls PUT /api/onboarding. */
export function OnboardingFlow() {
  const id = useId();
  useLocale();
  const STEPS = steps();
  const [step, setStep] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const completeOnboarding = useCompleteOnboarding();
  const saving = completeOnboarding.isPending;
  const heading = useRef<HTMLHeadingElement>(null);
  const current = STEPS[step]!;
  const last = step === STEPS.length - 1;

  // Each step replaces the previous one: move focus to its heading so screen readers announce it.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    heading.current?.focus();
  }, [step]);

  const finish = async () => {
    setError(null);
    try {
      // The session store replaces the user; the dashboard then shows itself instead of this flow.
      await completeOnboarding.mutateAsync(true);
    } catch {
      setError(t`Failed to update onboarding`);
    }
  };

  return (
    <section className="onboarding card" aria-labelledby={`${id}-title`}>
      <p className="eyebrow">{t`Step ${step + 1} of ${STEPS.length}`}</p>
      <ol className="onboarding-progress" aria-label={t`Onboarding progress`}>
        {STEPS.map((s, index) => (
          <li
            key={index}
            data-state={index < step ? 'done' : index === step ? 'current' : 'upcoming'}
            aria-current={index === step ? 'step' : undefined}
          >
            <span className="visually-hidden">{s.title}</span>
          </li>
        ))}
      </ol>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {current.title}
      </h2>
      {current.body}
      <div className="form-error" role="alert" aria-live="assertive">
        {error}
      </div>
      <div className="actions">
        {step > 0 && (
          <button type="button" className="btn btn-ghost" onClick={() => setStep(step - 1)} disabled={saving}>
            {t`Back`}
          </button>
        )}
        {last ? (
          <button type="button" className="btn btn-primary" onClick={finish} disabled={saving} aria-busy={saving || undefined}>
            {saving ? t`Saving…` : t`Go to my dashboard`}
          </button>
        ) : (
          <button type="button" className="btn btn-primary" onClick={() => setStep(step + 1)}>
            {t`Next`}
          </button>
        )}
        {!last && (
          <button type="button" className="btn btn-ghost" onClick={finish} disabled={saving}>
            {t`Skip`}
          </button>
        )}
      </div>
    </section>
  );
}
