import { plural, t } from '@lingui/core/macro';
import { QRCodeSVG } from 'qrcode.react';
import { Fragment, useId, useState } from 'react';
import toast from 'react-hot-toast';
import type { TotpSetupResponse } from '#shared/schemas/two-factor';
import { errorMessage } from '#web/lib/api-client';
import { useDisableTwoFactor } from '../api/disable-two-factor';
import { useTotpEnable } from '../api/enable-totp';
import { useTwoFactorStatus } from '../api/get-two-factor-status';
import { useRegenerateRecoveryCodes } from '../api/regenerate-recovery-codes';
import { useTotpSetup } from '../api/setup-totp';
import { PasskeysSection } from './passkeys-section';
import { PasswordStep } from './password-step';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import '../two-factor.css';
import { CheckboxField, TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { useLocale } from '#web/features/language';

type View =
  | { kind: 'idle' }
  | { kind: 'password' }
  | { kind: 'scan'; setup: TotpSetupResponse }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'regenerate' }
  | { kind: 'disable' };

/**
 * Groups of four, easier to type into an app by hand. A line may break between groups, never inside one
 * (each group is a nowrap span), so a narrow screen does not split "ABCD" into "AB" and "CD".
 */
function spaced(secret: string) {
  const groups = secret.match(/.{1,4}/g) ?? [];
  return groups.map((group, i) => (
    <Fragment key={i}>
      {i > 0 && ' '}
      <span className="totp-secret-group">{group}</span>
    </Fragment>
  ));
}

function ScanStep({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TotpSetupResponse;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const id = useId();
  useLocale();
  const enable = useTotpEnable();
  const [code, setCode] = useState('');
  const [signOutOthers, setSignOutOthers] = useState(true);
  const digits = code.replace(/\s+/g, '');
  // Every message shows on the code field, and focus goes back to it.
  const form = useForm<'code', undefined, { recoveryCodes: string[] }>({
    validate: () => (/^\d{6}$/.test(digits) ? {} : { code: t`Enter the 6-digit code from your authenticator app` }),
    action: () => enable.mutateAsync({ code: digits, signOutOtherSessions: signOutOthers }),
    onSuccess: ({ recoveryCodes }) => {
      toast.success(signOutOthers ? t`Two-factor sign-in is on. Your other sessions were signed out.` : t`Two-factor sign-in is on`);
      onEnabled(recoveryCodes);
    },
    onError: (err) => {
      const errors = { code: errorMessage(err, t`Could not turn on two-factor. Try again.`) };
      form.setErrors(errors);
      form.focusFirstError(errors);
      return true;
    },
  });

  return (
    <div className="totp-setup">
      <ol className="totp-steps">
        <li>
          <p>{t`Scan this QR code with an authenticator app (1Password, Google Authenticator, Aegis…).`}</p>
          <div className="totp-qr">
            <QRCodeSVG value={setup.otpauthUrl} size={176} marginSize={2} title={t`QR code for your authenticator app`} />
          </div>
          <p className="muted">{t`Cannot scan it? Enter this secret in the app instead:`}</p>
          <p>
            <code className="totp-secret" aria-label={t`Secret for manual entry`} data-secret={setup.secret}>
              {spaced(setup.secret)}
            </code>
          </p>
        </li>
        <li>
          <Form form={form}>
            <TextField
              id={`${id}-code`}
              label={t`Enter the 6-digit code the app shows`}
              error={form.errors.code}
              errorAlert
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={9}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <CheckboxField
              id={`${id}-sign-out`}
              label={t`Sign out every other session`}
              note={t`Recommended: anyone signed in as you elsewhere has to sign in again, with a code.`}
              name="signOutOtherSessions"
              checked={signOutOthers}
              onChange={(e) => setSignOutOthers(e.target.checked)}
            />
            <div className="two-factor-actions">
              <StatusButton busy={enable.isPending} busyLabel={t`Turning on…`} className="btn btn-primary btn-small">
                {t`Turn on`}
              </StatusButton>
              <button type="button" className="btn btn-ghost btn-small" onClick={onCancel}>
                {t`Cancel`}
              </button>
            </div>
          </Form>
        </li>
      </ol>
    </div>
  );
}

/** Settings: authenticator app, recovery codes and passkeys (decision 0140). */
export function TwoFactorSettings() {
  const id = useId();
  useLocale();
  const status = useTwoFactorStatus();
  const setup = useTotpSetup();
  const regenerate = useRegenerateRecoveryCodes();
  const disable = useDisableTwoFactor();
  const [view, setView] = useState<View>({ kind: 'idle' });
  const idle = () => setView({ kind: 'idle' });

  let body;
  if (status.isPending) body = <p className="muted">{t`Loading two-factor settings…`}</p>;
  else if (status.isError)
    body = (
      <div>
        <p className="field-error">{t`Could not load your two-factor settings.`}</p>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => void status.refetch()}>
          {t`Try again`}
        </button>
      </div>
    );
  else if (view.kind === 'codes') body = <RecoveryCodesPanel codes={view.codes} onDone={idle} />;
  else if (view.kind === 'scan')
    body = <ScanStep setup={view.setup} onEnabled={(codes) => setView({ kind: 'codes', codes })} onCancel={idle} />;
  else if (view.kind === 'password')
    body = (
      <PasswordStep
        submitLabel={t`Continue`}
        pendingLabel={t`Checking…`}
        pending={setup.isPending}
        onCancel={idle}
        onSubmit={async ({ currentPassword }) => setView({ kind: 'scan', setup: await setup.mutateAsync(currentPassword) })}
      >
        <p className="muted">{t`Confirm your password to set up an authenticator app.`}</p>
      </PasswordStep>
    );
  else if (view.kind === 'regenerate')
    body = (
      <PasswordStep
        submitLabel={t`Make new codes`}
        pendingLabel={t`Making codes…`}
        pending={regenerate.isPending}
        onCancel={idle}
        stepUp
        onSubmit={async (input) => setView({ kind: 'codes', codes: (await regenerate.mutateAsync(input)).recoveryCodes })}
      >
        <p className="muted">{t`New codes replace all your old ones.`}</p>
      </PasswordStep>
    );
  else if (view.kind === 'disable')
    body = (
      <PasswordStep
        submitLabel={t`Turn off two-factor`}
        pendingLabel={t`Turning off…`}
        pending={disable.isPending}
        stepUp
        onCancel={idle}
        onSubmit={async (input) => {
          await disable.mutateAsync(input);
          toast.success(t`Two-factor sign-in is off`);
          idle();
        }}
      >
        <p className="muted">{t`Without two-factor, your password alone signs in to your account.`}</p>
      </PasswordStep>
    );
  else {
    const { totp, recoveryCodesLeft } = status.data;
    body = totp ? (
      <div>
        <p>
          <span className="tf-badge tf-badge-on">{t`On`}</span> {t`Signing in asks for a code from your authenticator app.`}
        </p>
        <p className={recoveryCodesLeft <= 2 ? 'field-error' : 'muted'}>
          {recoveryCodesLeft <= 2
            ? plural(recoveryCodesLeft, {
                one: '# of 10 recovery codes left: make new ones soon.',
                other: '# of 10 recovery codes left: make new ones soon.',
              })
            : plural(recoveryCodesLeft, { one: '# of 10 recovery codes left.', other: '# of 10 recovery codes left.' })}
        </p>
        <div className="two-factor-actions">
          <button type="button" className="btn btn-secondary btn-small" onClick={() => setView({ kind: 'regenerate' })}>
            {t`New recovery codes`}
          </button>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setView({ kind: 'disable' })}>
            {t`Turn off two-factor`}
          </button>
        </div>
      </div>
    ) : (
      <div>
        <p>
          <span className="tf-badge">{t`Off`}</span> {t`A stolen password is enough to sign in as you.`}
        </p>
        <button type="button" className="btn btn-primary btn-small" onClick={() => setView({ kind: 'password' })}>
          {t`Set up authenticator app`}
        </button>
      </div>
    );
  }

  return (
    <>
      <section
        className="card settings-section two-factor-settings"
        aria-labelledby={`${id}-title`}
        aria-busy={status.isPending || undefined}
      >
        <h2 id={`${id}-title`}>{t`Two-factor sign-in`}</h2>
        <p className="muted">{t`A code from an authenticator app on your phone, asked after your password.`}</p>
        {body}
      </section>
      <PasskeysSection />
    </>
  );
}
