import { useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { paths } from '#shared/routes';
import { useSessionStore } from '#web/features/auth';

/** Ends the session on the server, then leaves for /login; a failure leaves the user signed in and says so. */
export function useSignOut() {
  const logout = useSessionStore((s) => s.logout);
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const signOut = async () => {
    setPending(true);
    const ok = await logout();
    setPending(false);
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
