import { Navigate, Outlet, useLocation } from 'react-router';
import { isSignedIn, useAuth } from '../lib/auth-store.ts';

/** Spec section 2, guard: unauthenticated users go to /login, remembering where they were going. */
export function RequireAuth() {
  const auth = useAuth();
  const location = useLocation();
  // Signed in offline too (issue 28): a remembered session that waits for the network to refresh.
  if (!isSignedIn(auth)) {
    // Logout and account deletion leave the page before clearing the session, but the router may
    // still be rendering the old page for a moment: a page already being left must not redirect.
    if (window.location.pathname !== location.pathname) return null;
    return <Navigate to="/login" state={{ from: location }} replace />;
  }
  return <Outlet />;
}
