import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { endSession } from '../lib/session.ts';

/**
 * Logout (spec section 4): clears auth, calls GET /api/logout (failures only logged) and lands on /.
 * It navigates first, so that the sign-in guard of the page being left does not bounce to /login
 * (see RequireAuth).
 */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    await navigate('/');
    await endSession();
    queryClient.clear();
  };
}
