import type { ConfirmEmailResponse } from '@cats/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { buttonClass } from '../../../components/button.tsx';
import { AlertIcon, CheckIcon } from '../../../components/icons.tsx';
import { api, ApiError, noServerResponse } from '../../../lib/api-client.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { AuthLogoLink } from '../components/auth-logo-link.tsx';
import { tokenFromHash } from './mail-link-token.ts';
import '../components/auth-card.css';

type Outcome =
  | { kind: 'pending' }
  | { kind: 'done'; email: string }
  | { kind: 'invalid' }
  | { kind: 'taken'; message: string }
  | { kind: 'failed'; message: string };

/**
 * The page of the link mailed to a new address (issue 29): applies the change and says how it went.
 * It works signed out too (the link may be opened on another device); the token is the credential.
 */
export default function ConfirmEmailPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromHash(location.hash));
  const [outcome, setOutcome] = useState<Outcome>(token ? { kind: 'pending' } : { kind: 'invalid' });
  // A token works once: React's development double effect must not send it twice.
  const sent = useRef(false);
  const t = useTranslate();

  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname, hash: '' }, { replace: true });
    if (!token || sent.current) return;
    sent.current = true;
    api<ConfirmEmailResponse>('/api/email/confirm', {
      method: 'POST',
      body: { token },
      anonymous: true,
    }).then(
      async (data) => {
        // Signed in as that account here: the screens (top bar, Settings) show the new address at once.
        // The query cache is loaded only then, so that it stays out of a visitor's download.
        if (authStore.get().userId === data.userId) {
          authStore.set({ email: data.email });
          const [{ queryClient }, { myProfileKey }] = await Promise.all([
            import('../../../lib/query-client.ts'),
            import('../../../lib/my-profile.ts'),
          ]);
          await queryClient.invalidateQueries({ queryKey: myProfileKey }).catch(() => undefined);
        }
        setOutcome({ kind: 'done', email: data.email });
      },
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 400) setOutcome({ kind: 'invalid' });
        else if (err instanceof ApiError && err.status === 409)
          setOutcome({ kind: 'taken', message: err.message });
        else
          setOutcome({
            kind: 'failed',
            message: err instanceof ApiError && err.status !== null ? err.message : noServerResponse(),
          });
      },
    );
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const signedIn = authStore.get().accessToken !== null;
  const onward = signedIn ? (
    <Link className={buttonClass('primary', 'lg')} to="/profile/settings">
      <Message id="auth.confirmEmail.toSettings" defaultMessage="Go to Settings" />
    </Link>
  ) : (
    <Link className={buttonClass('primary', 'lg')} to="/login">
      <Message id="auth.confirmEmail.toLogin" defaultMessage="Log in" />
    </Link>
  );

  return (
    <div className="auth-screen">
      <title>
        {t({ id: 'auth.confirmEmail.pageTitle', defaultMessage: 'Confirm email · Neighbourhood Cats' })}
      </title>
      <section className="auth-card" aria-labelledby="confirm-title">
        <AuthLogoLink />
        <h1 id="confirm-title" className="auth-card__title">
          <Message id="auth.confirmEmail.heading" defaultMessage="Confirm your new email" />
        </h1>
        <div className="auth-card__result" aria-live="polite">
          {outcome.kind === 'pending' && (
            <p className="muted">
              <Message id="auth.confirmEmail.pending" defaultMessage="Confirming..." />
            </p>
          )}
          {outcome.kind === 'done' && (
            <>
              <p className="notice notice--success" role="status">
                <CheckIcon size={20} />
                <span>
                  <Message
                    id="auth.confirmEmail.done"
                    defaultMessage="Your email address is now {email}. You log in with it from now on."
                    values={{ email: <strong translate="no">{outcome.email}</strong> }}
                  />
                </span>
              </p>
              {onward}
            </>
          )}
          {outcome.kind !== 'pending' && outcome.kind !== 'done' && (
            <>
              <p className="notice notice--error" role="alert">
                <AlertIcon size={20} />
                <span>
                  {outcome.kind === 'invalid' ? (
                    <Message
                      id="auth.confirmEmail.invalidLink"
                      defaultMessage="This link is invalid, has expired or was already used. Ask for a new one in Settings."
                    />
                  ) : (
                    outcome.message
                  )}
                </span>
              </p>
              {onward}
            </>
          )}
        </div>
      </section>
    </div>
  );
}
