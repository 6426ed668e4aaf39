import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { endSession } from '../lib/session.ts';
import type { SignedOutState } from './home-route.tsx';

/**
 * Logout (spec section 4): clears auth, calls GET /api/logout (failures only logged) and lands on /.
 * It navigates first, so that the sign-in guard of the page being left does not bounce to /login
 * (see RequireAuth); the state tells the home page not to send the still signed-in visitor to the feed.
 */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    const state: SignedOutState = { signedOut: true };
    await navigate('/', { state });
    await endSession();
    queryClient.clear();
  };
}
