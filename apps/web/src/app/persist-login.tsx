import { useEffect, useEffectEvent, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { onSessionExpired, refreshSession } from '../lib/api-client.ts';
import { authStore, getPersist } from '../lib/auth-store.ts';
import './persist-login.css';

/**
 * Spec sections 2 and 4: with 'Remember me' on and no access token in memory (a reload, a new tab), the
 * session is restored from the refresh cookie before any screen renders, showing 'Loading...'. A failed
 * restore is ignored: the person is simply logged out. Also sends the person to /login, remembering where
 * they were, when a request's token could not be refreshed.
 */
export function PersistLogin() {
  // Decided once per page load: logging out later must not trigger another restore.
  const [restoring, setRestoring] = useState(() => getPersist() && !authStore.get().accessToken);
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    if (!restoring) return;
    let active = true;
    refreshSession()
      .catch(() => {
        /* Startup refresh failure: ignored (spec section 8). */
      })
      .finally(() => {
        if (active) setRestoring(false);
      });
    return () => {
      active = false;
    };
  }, [restoring]);

  const sendToLogin = useEffectEvent(() => {
    if (location.pathname === '/login') return;
    void navigate('/login', { state: { from: location }, replace: true });
  });
  useEffect(() => onSessionExpired(() => sendToLogin()), []);

  if (restoring) {
    return (
      <div className="persist-login" role="status">
        <p>Loading...</p>
      </div>
    );
  }
  return <Outlet />;
}
