import { t } from '@lingui/core/macro';
import { useEffect, useId, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths } from '#shared/routes';
import { emailSchema, passwordSchema, referralCodeSchema, usernameSchema } from '#shared/schemas/auth';
import { Form, FormError, StatusButton, useForm } from '#web/components/ui/use-form';
import { useUiStore } from '#web/stores/ui-store';
import { useFinishSignIn, useGuestLogin, useLogin, useRegister } from '../api/session-mutations';
import { useSessionStore } from '../stores/session-store';
import { sessionErrorText } from '../stores/session-error-labels';
import { BotCheck } from './bot-check';
import type { AuthResponse } from '#shared/schemas/auth';
import type { TwoFactorChallengeResponse } from '#shared/schemas/two-factor';
import { LoginSecondStep, PasskeySignInButton } from '#web/features/two-factor';
import {
  accountClosingOf,
  forgetClosedAccountNotice,
  readClosedAccountNotice,
  RestoreAccount,
  type ClosedAccountState,
} from '#web/features/account-closure';
import type { AccountClosingDetails } from '#shared/schemas/account-closure';
import { formatDateTime } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';

type FieldName = 'username' | 'email' | 'password' | 'referralCode' | 'turnstileToken';
type FieldErrors = Partial<Record<FieldName, string>>;

const SITE_KEY = (import.meta.env.VITE_TURNSTILE_SITE_KEY as string | undefined) || null;

/** The same field rules the server applies (shared schemas), so most mistakes show before a round trip. */
function validate(
  isLogin: boolean,
  values: { username: string; email: string; password: string; referralCode: string },
  botToken: string | null,
): FieldErrors {
  const errors: FieldErrors = {};
  const firstIssue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
    result.success ? undefined : result.error?.issues[0]?.message;
  if (isLogin) {
    if (!values.username.trim()) errors.username = t`Username is required`;
    if (!values.password) errors.password = t`Password is required`;
  } else {
    errors.username = firstIssue(usernameSchema.safeParse(values.username));
    errors.email = firstIssue(emailSchema.safeParse(values.email));
    errors.password = firstIssue(passwordSchema.safeParse(values.password));
    errors.referralCode = firstIssue(referralCodeSchema.safeParse(values.referralCode));
  }
  if (!botToken) errors.turnstileToken = t`Please complete the bot check`;
  return Object.fromEntries(Object.entries(errors).filter(([, v]) => v)) as FieldErrors;
}

const FIELD_ORDER: FieldName[] = ['username', 'email', 'password', 'referralCode', 'turnstileToken'];

/**
 * Sign-in and registration in one form (docs/product.md#states: the form toggles between the two modes).
 * /login opens it in login mode, /register in register mode.
 */
export function AuthForm({ mode }: { mode: 'login' | 'register' }) {
  const id = useId();
  useLocale();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const isLogin = useUiStore((s) => s.isLogin);
  const setIsLogin = useUiStore((s) => s.setIsLogin);
  const toggleLoginForm = useUiStore((s) => s.toggleLoginForm);
  const login = useLogin();
  const register = useRegister();
  const guestLogin = useGuestLogin();
  const completeSignIn = useFinishSignIn();

  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [referralCode, setReferralCode] = useState(() => searchParams.get('ref') ?? '');
  // Opened from someone's link (/register?ref=CODE, docs/product.md#referrals): the code is filled in and the bonus said.
  const invited = Boolean(searchParams.get('ref')?.trim()) && referralCode.trim() !== '';
  const [botToken, setBotToken] = useState<string | null>(null);
  const [botResetKey, setBotResetKey] = useState(0);
  // Two-factor on: the password was right, the second step (decision 0140) finishes the sign-in.
  const [secondStep, setSecondStep] = useState<TwoFactorChallengeResponse | null>(null);
  // A closing account (decision 0255): the right password leads to "Restore it" instead of a session.
  const [closing, setClosing] = useState<AccountClosingDetails | null>(null);
  const closedState = (useLocation().state as Partial<ClosedAccountState> | null)?.accountClosingOn;
  const [closedStored] = useState(() => (isLogin ? readClosedAccountNotice() : null));
  // Said once: a later visit to the sign-in page in this tab does not repeat it.
  useEffect(() => forgetClosedAccountNotice(), []);
  const closedNow = closedState ?? closedStored;
  const finishSignIn = (response: AuthResponse) => {
    completeSignIn(response, rememberMe);
    navigate(paths.dashboard, { replace: true });
  };

  // The route decides the mode it opens in; the toggle below switches within the page.
  useEffect(() => setIsLogin(mode === 'login'), [mode, setIsLogin]);

  const form = useForm<FieldName>({
    validate: () => validate(isLogin, { username, email, password, referralCode }, botToken),
    action: async () => {
      if (guestLogin.isPending) return;
      if (isLogin) {
        const result = await login.mutateAsync({ username: username.trim(), password, rememberMe, turnstileToken: botToken! });
        if ('twoFactorRequired' in result) {
          setSecondStep(result);
          return;
        }
      } else {
        await register.mutateAsync({
          username: username.trim(),
          email: email.trim(),
          password,
          turnstileToken: botToken!,
          referralCode: referralCode.trim() || undefined,
        });
      }
      // A new account starts with the onboarding steps, which the dashboard shows until they are done.
      navigate(paths.dashboard, { replace: true });
    },
    onError: (err) => {
      const closingAccount = isLogin ? accountClosingOf(err) : null;
      if (closingAccount) {
        setClosing(closingAccount);
        return true;
      }
      // A real Turnstile token is single-use: a failed attempt needs a fresh check.
      if (SITE_KEY) {
        setBotToken(null);
        setBotResetKey((k) => k + 1);
      }
      return false;
    },
    formError: () => {
      const error = useSessionStore.getState().error;
      return error ? sessionErrorText(error) : isLogin ? t`Login failed` : t`Registration failed`;
    },
    // The bot check has no named control of its own: its widget (or its checkbox) takes the focus.
    focus: (errors) => {
      const first = FIELD_ORDER.find((name) => errors[name]);
      if (!first) return;
      const element = form.formRef.current?.querySelector<HTMLElement>(
        first === 'turnstileToken' ? '.bot-check input, .bot-check' : `[name="${first}"]`,
      );
      element?.focus();
    },
  });
  const fieldErrors = form.errors;
  const pending = form.busy ? 'submit' : guestLogin.isPending ? 'guest' : null;

  const switchMode = () => {
    toggleLoginForm();
    form.reset();
    // Keep the address bar in step with the form, so reloading or sharing the link opens the same mode.
    navigate({ pathname: isLogin ? paths.register : paths.login, search: searchParams.toString() }, { replace: true });
  };

  const continueAsGuest = async () => {
    if (pending) return;
    form.setFormError(null);
    try {
      await guestLogin.mutateAsync();
      navigate(paths.dashboard, { replace: true });
    } catch {
      const error = useSessionStore.getState().error;
      form.setFormError(error ? sessionErrorText(error) : t`Could not start a guest session`);
    }
  };

  const fieldProps = (name: FieldName) => ({
    id: `${id}-${name}`,
    name,
    'aria-invalid': fieldErrors[name] ? true : undefined,
    'aria-describedby': fieldErrors[name] ? `${id}-${name}-error` : undefined,
  });
  const errorFor = (name: FieldName) =>
    fieldErrors[name] ? (
      <p id={`${id}-${name}-error`} className="field-error">
        {fieldErrors[name]}
      </p>
    ) : null;

  const title = isLogin ? t`Log in` : t`Create your account`;
  const erasedOn = closedNow ? formatDateTime(closedNow) : '';

  if (isLogin && secondStep) {
    return (
      <div className="auth-card card">
        <LoginSecondStep challenge={secondStep} onSignedIn={finishSignIn} onRestart={() => setSecondStep(null)} />
      </div>
    );
  }

  if (isLogin && closing) {
    return (
      <div className="auth-card card">
        <RestoreAccount
          closing={closing}
          username={username.trim()}
          password={password}
          rememberMe={rememberMe}
          onRestored={finishSignIn}
          onCancel={() => {
            setClosing(null);
            setPassword('');
          }}
        />
      </div>
    );
  }

  return (
    <div className="auth-card card">
      <h1 id={`${id}-title`}>{title}</h1>
      {isLogin && closedNow && (
        <p role="status" className="settings-notice" data-testid="account-closed-notice">
          {t`Your account is closing. It will be erased on ${erasedOn}; until then you can sign in here and restore it. We sent you a mail about it.`}
        </p>
      )}
      <p className="muted">
        {isLogin
          ? t`Welcome back. Sign in to see your credits and tickets.`
          : t`Sign up to top up credits, claim exchange rewards and get support.`}
      </p>

      <FormError form={form} />

      <Form form={form} aria-labelledby={`${id}-title`}>
        <div className="field">
          <label htmlFor={`${id}-username`}>{t`Username`}</label>
          <input
            {...fieldProps('username')}
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
          />
          {errorFor('username')}
        </div>

        {!isLogin && (
          <div className="field">
            <label htmlFor={`${id}-email`}>{t`Email`}</label>
            <input
              {...fieldProps('email')}
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
            {errorFor('email')}
          </div>
        )}

        <div className="field">
          <label htmlFor={`${id}-password`}>{t`Password`}</label>
          <input
            {...fieldProps('password')}
            type="password"
            autoComplete={isLogin ? 'current-password' : 'new-password'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          {!isLogin && !fieldErrors.password && (
            <p className="field-note">{t`At least 8 characters. A long phrase is easiest to remember.`}</p>
          )}
          {errorFor('password')}
        </div>

        {isLogin ? (
          <div className="auth-checkbox-row">
            <input id={`${id}-remember`} type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />
            <label htmlFor={`${id}-remember`}>{t`Remember me for 30 days`}</label>
            <Link className="forgot-link" to={paths.forgotPassword}>
              {t`Forgot password?`}
            </Link>
          </div>
        ) : (
          <div className="field">
            <label htmlFor={`${id}-referralCode`}>
              {t`Referral code`} <span className="muted">{t`(optional)`}</span>
            </label>
            <input
              {...fieldProps('referralCode')}
              autoComplete="off"
              value={referralCode}
              onChange={(e) => setReferralCode(e.target.value)}
            />
            {errorFor('referralCode')}
            {invited && !fieldErrors.referralCode && (
              <p className="field-note" data-testid="referral-invited">
                {t`You were invited: you get a welcome bonus on your first top-up.`}
              </p>
            )}
          </div>
        )}

        <fieldset className="bot-check-group" aria-describedby={fieldErrors.turnstileToken ? `${id}-turnstileToken-error` : undefined}>
          <legend className="visually-hidden">{t`Bot check`}</legend>
          <BotCheck siteKey={SITE_KEY} resetKey={botResetKey} onToken={setBotToken} />
          {errorFor('turnstileToken')}
        </fieldset>

        <StatusButton
          busy={form.busy}
          busyLabel={isLogin ? t`Logging in…` : t`Creating account…`}
          className="btn btn-primary auth-submit"
          disabled={pending !== null}
        >
          {isLogin ? t`Log in` : t`Create account`}
        </StatusButton>
      </Form>
      {isLogin && <PasskeySignInButton rememberMe={rememberMe} onSignedIn={finishSignIn} />}

      <p className="auth-switch">
        {isLogin ? t`New to Olympus?` : t`Already have an account?`}{' '}
        <button type="button" className="link-button" onClick={switchMode}>
          {isLogin ? t`Create an account` : t`Log in instead`}
        </button>
      </p>

      <div className="auth-guest">
        <p className="muted">
          {t`Just looking around? Guests can exchange crypto and open support tickets, and claim rewards after signing up.`}
        </p>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={continueAsGuest}
          disabled={pending !== null}
          aria-busy={pending === 'guest' || undefined}
        >
          {pending === 'guest' ? t`Starting guest session…` : t`Continue as guest`}
        </button>
      </div>

      <p className="muted auth-legal">
        <RichText
          message={t`By continuing you agree to the <0>terms</0> and the <1>privacy policy</1>.`}
          elements={[<Link key="terms" to={paths.terms} />, <Link key="privacy" to={paths.privacy} />]}
        />
      </p>
    </div>
  );
}
