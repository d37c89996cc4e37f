import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { useCompleteOnboarding } from '#web/features/auth/mutations';

const STEPS = [
  {
    title: 'Welcome to Olympus',
    body: (
      <>
        <p>Your account is ready. From your dashboard you can top up credits, swap crypto, and reach our support team.</p>
        <p>This takes three short steps; you can skip them at any time.</p>
      </>
    ),
  },
  {
    title: 'How credits work',
    body: (
      <>
        <p>
          One credit is worth one US dollar. You top up by paying in cryptocurrency; the payment page shows the exact amount and address.
        </p>
        <p>
          A small processing fee applies: 5% below $100, 3% from $100 and 1% from $500. Credits arrive once the payment is confirmed on the
          blockchain.
        </p>
      </>
    ),
  },
  {
    title: 'Connect your accounts',
    body: (
      <>
        <p>Link Discord or Telegram in your settings to get notified and identified faster when you ask for support.</p>
        <p>
          You can do this now or later from <Link to={paths.settings}>Settings</Link>.
        </p>
      </>
    ),
  },
] as const;

/** Shown on the dashboard until a new user finishes it; finishing calls PUT /api/onboarding. */
export function OnboardingFlow() {
  const id = useId();
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
      setError('Failed to update onboarding');
    }
  };

  return (
    <section className="onboarding card" aria-labelledby={`${id}-title`}>
      <p className="eyebrow">
        Step {step + 1} of {STEPS.length}
      </p>
      <ol className="onboarding-progress" aria-label="Onboarding progress">
        {STEPS.map((s, index) => (
          <li
            key={s.title}
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
            Back
          </button>
        )}
        {last ? (
          <button type="button" className="btn btn-primary" onClick={finish} disabled={saving} aria-busy={saving || undefined}>
            {saving ? 'Saving…' : 'Go to my dashboard'}
          </button>
        ) : (
          <button type="button" className="btn btn-primary" onClick={() => setStep(step + 1)}>
            Next
          </button>
        )}
        {!last && (
          <button type="button" className="btn btn-ghost" onClick={finish} disabled={saving}>
            Skip
          </button>
        )}
      </div>
    </section>
  );
}
