import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../lib/auth-store.ts';

/** Set by logout (use-logout.ts): it lands on / while still signed in for a moment. */
export interface SignedOutState {
  signedOut: true;
}

/**
 * The home page (/): a signed-in visitor goes to the feed, replacing history, so that logging in
 * (whose default destination is /, spec section 2) lands on the feed rather than the marketing page
 * (issue 28, point 8). The landing stays public at / and reachable for everyone at /welcome (About).
 */
export function HomeRoute({ landing }: { landing: ReactNode }) {
  const { accessToken } = useAuth();
  const location = useLocation();
  const state = location.state as Partial<SignedOutState> | null;
  // Keyed by the visit: navigations render in transitions, so a second visit of / (the logo tapped
  // while the feed still loads) can find this Navigate still mounted, whose effect would not run again.
  if (accessToken && !state?.signedOut) return <Navigate key={location.key} to="/feed" replace />;
  return landing;
}
