import { t } from '@lingui/core/macro';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { paths } from '#shared/routes';
import { useLogout } from '#web/features/auth/mutations';
import { useLocale } from '#web/features/language';

/** Ends the session on the server, then leaves for /login; a failure leaves the user signed in and says so. */
export function useSignOut() {
  const logout = useLogout();
  const navigate = useNavigate();
  const pending = logout.isPending;
  const signOut = async () => {
    const ok = await logout.mutateAsync();
    if (ok) navigate(paths.login, { replace: true });
    else toast.error(t`Could not sign out. Check your connection and try again.`);
  };
  return { signOut, pending };
}

export function SignOutButton({ label, className = 'btn btn-secondary' }: { label?: string; className?: string }) {
  useLocale();
  const { signOut, pending } = useSignOut();
  return (
    <button type="button" className={className} onClick={signOut} disabled={pending} aria-busy={pending || undefined}>
      {pending ? t`Signing out…` : (label ?? t`Sign out`)}
    </button>
  );
}
