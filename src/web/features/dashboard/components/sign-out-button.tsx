import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { paths } from '#shared/routes';
import { useLogout } from '#web/features/auth/mutations';

/** Ends the session on the server, then leaves for /login; a failure leaves the user signed in and says so. */
export function useSignOut() {
  const logout = useLogout();
  const navigate = useNavigate();
  const pending = logout.isPending;
  const signOut = async () => {
    const ok = await logout.mutateAsync();
    if (ok) navigate(paths.login, { replace: true });
    else toast.error('Could not sign out. Check your connection and try again.');
  };
  return { signOut, pending };
}

export function SignOutButton({ label = 'Sign out', className = 'btn btn-secondary' }: { label?: string; className?: string }) {
  const { signOut, pending } = useSignOut();
  return (
    <button type="button" className={className} onClick={signOut} disabled={pending} aria-busy={pending || undefined}>
      {pending ? 'Signing out…' : label}
    </button>
  );
}
