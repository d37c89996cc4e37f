import { t } from '@lingui/core/macro';
import { useState } from 'react';
import { useLocale } from '#web/features/language';
import type { AuthResponse } from '#shared/schemas/auth';
import { usePasskeySignIn } from '../api/sign-in-with-passkey';
import { passkeysUnavailableHere } from '../passkeys-availability';
import { passkeyErrorMessage } from './passkeys-section';
import '../two-factor.css';

/** "Sign in with a passkey" on /login: no username, the browser offers the passkeys it holds for this site. */
export function PasskeySignInButton({ rememberMe, onSignedIn }: { rememberMe: boolean; onSignedIn: (response: AuthResponse) => void }) {
  useLocale();
  const signIn = usePasskeySignIn();
  const pending = signIn.isPending;
  const [error, setError] = useState<string | null>(null);
  const reason = passkeysUnavailableHere();

  const start = async () => {
    if (pending) return;
    setError(null);
    try {
      onSignedIn(await signIn.mutateAsync(rememberMe));
    } catch (err) {
      setError(passkeyErrorMessage(err, t`Could not sign in with a passkey. Try again or use your password.`));
    }
  };

  return (
    <div className="passkey-sign-in">
      {reason ? (
        <p className="muted passkeys-unavailable" role="note">
          {reason}
        </p>
      ) : (
        <>
          <button
            type="button"
            className="btn btn-secondary auth-submit"
            onClick={() => void start()}
            disabled={pending}
            aria-busy={pending || undefined}
          >
            {pending ? t`Waiting for your passkey…` : t`Sign in with a passkey`}
          </button>
          <div className="form-error" role="alert" aria-live="assertive">
            {error}
          </div>
        </>
      )}
    </div>
  );
}
