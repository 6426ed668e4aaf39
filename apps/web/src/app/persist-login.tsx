import { useEffect, useEffectEvent, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { ApiError, onSessionExpired, refreshSession } from '../lib/api-client.ts';
import { Message } from '../i18n/message.tsx';
import { authStore, getPersist } from '../lib/auth-store.ts';
import { rememberedUser } from '../lib/persist-flag.ts';
import './persist-login.css';

/**
 * Spec sections 2 and 4: with 'Remember me' on and no access token in memory (a reload, a new tab), the
 * session is restored from the refresh cookie before any screen renders, showing 'Loading...'. A failed
 * restore is ignored: the person is simply logged out. Also sends the person to /login, remembering where
 * they were, when a request's token could not be refreshed.
 *
 * Issue 28: a restore that failed for want of network is not a logout. The remembered person stays
 * signed in without a token, their pages come from the service worker's cache, and the session is
 * restored as soon as the browser is back online (a request's 401 would refresh it too).
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
      .catch((err: unknown) => {
        // Startup refresh failure: ignored (spec section 8), unless it was only the network.
        const userId = rememberedUser();
        if (err instanceof ApiError && err.isNetworkError && userId) authStore.set({ userId });
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

  // Back online with a session kept offline: restore it. A refused refresh ends it as usual.
  const restoreOnline = useEffectEvent(() => {
    const { accessToken, userId } = authStore.get();
    if (accessToken || !userId) return;
    refreshSession().catch((err: unknown) => {
      if (err instanceof ApiError && err.isNetworkError) return;
      authStore.clear();
      sendToLogin();
    });
  });
  useEffect(() => {
    const onOnline = () => restoreOnline();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, []);

  if (restoring) {
    return (
      <div className="persist-login" role="status">
        <p>
          <Message id="app.loading" defaultMessage="Loading..." />
        </p>
      </div>
    );
  }
  return <Outlet />;
}
