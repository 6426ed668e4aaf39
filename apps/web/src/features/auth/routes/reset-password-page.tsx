import type { TokenResponse } from '@cats/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button, buttonClass } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { AlertIcon } from '../../../components/icons.tsx';
import { api, ApiError, noServerResponse } from '../../../lib/api-client.ts';
import { authStore } from '../../../lib/auth-store.ts';
import { translate } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { AuthLogoLink } from '../components/auth-logo-link.tsx';
import { useCheckedFields } from '../components/checked-fields.ts';
import { FormError } from '../components/form-error.tsx';
import { newPasswordRules } from '../components/new-password-rules.ts';
import { tokenFromHash } from './mail-link-token.ts';
import '../components/auth-card.css';

type Field = 'password' | 'confirm';

/** An expired, used or unknown link: say so, and offer a new one. */
function InvalidLink() {
  return (
    <div className="auth-card__result">
      <p className="notice notice--error" role="alert">
        <AlertIcon size={20} />
        <span>
          <Message
            id="auth.reset.invalidLink"
            defaultMessage="This link is invalid, has expired or was already used."
          />
        </span>
      </p>
      <Link className={buttonClass('primary', 'lg')} to="/forgot-password">
        <Message id="auth.reset.askAgain" defaultMessage="Ask for a new link" />
      </Link>
    </div>
  );
}

function resetErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError) || err.status === null) return noServerResponse();
  if (err.status === 429)
    return translate({
      id: 'auth.reset.tooMany',
      defaultMessage: 'Too many requests, please try again later',
    });
  // A suspended account (issue 27): the server's sentence, in the screen's language.
  if (err.status === 403) return err.message;
  return translate({ id: 'auth.reset.failed', defaultMessage: 'Request failed' });
}

/**
 * The page of the link mailed by 'Forgot password?' (issue 29): a new password with sign-up's rules and
 * messages, then signed in on the feed. Every other session of the account has ended.
 */
export default function ResetPasswordPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => tokenFromHash(location.hash));
  const passwordRef = useRef<HTMLInputElement>(null);
  const [errorMessage, setErrorMessage] = useState('');
  const { values, allValid, showHint, bind } = useCheckedFields<Field>(
    { password: '', confirm: '' },
    newPasswordRules,
    () => setErrorMessage(''),
  );
  const [submitting, setSubmitting] = useState(false);
  const [linkDead, setLinkDead] = useState(false);
  const t = useTranslate();

  useEffect(() => {
    // The token stays in this page's state only: off the address bar, so it is not shared or kept.
    if (location.hash) void navigate({ pathname: location.pathname, hash: '' }, { replace: true });
    passwordRef.current?.focus();
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const hints: Record<Field, string> = {
    password: t({ id: 'auth.reset.passwordHint', defaultMessage: 'Please check your password is valid' }),
    confirm: t({ id: 'auth.reset.confirmHint', defaultMessage: 'Passwords do not match.' }),
  };
  const hint = (field: Field) => (showHint(field) ? hints[field] : null);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!token || !allValid) return;
    setSubmitting(true);
    try {
      const data = await api<TokenResponse>('/api/password/reset', {
        method: 'POST',
        body: { token, password: values.password },
        anonymous: true,
      });
      authStore.set({ accessToken: data.accessToken, userId: data.userId, email: null });
      await navigate('/feed', { replace: true });
    } catch (err) {
      setSubmitting(false);
      // The form checks sign-up's rules first, so a 400 is about the link.
      if (err instanceof ApiError && err.status === 400) setLinkDead(true);
      else setErrorMessage(resetErrorMessage(err));
    }
  };

  return (
    <div className="auth-screen">
      <title>{t({ id: 'auth.reset.pageTitle', defaultMessage: 'New password · Neighbourhood Cats' })}</title>
      <section className="auth-card" aria-labelledby="reset-title">
        <AuthLogoLink />
        <h1 id="reset-title" className="auth-card__title">
          <Message id="auth.reset.heading" defaultMessage="Choose a new password" />
        </h1>
        {!token || linkDead ? (
          <InvalidLink />
        ) : (
          <>
            <p className="muted">
              <Message
                id="auth.reset.lead"
                defaultMessage="You will be signed in with it, and signed out everywhere else."
              />
            </p>
            <FormError message={errorMessage} />
            <form onSubmit={onSubmit}>
              <TextField
                ref={passwordRef}
                label={t({ id: 'auth.reset.password', defaultMessage: 'New password' })}
                type="password"
                name="password"
                autoComplete="new-password"
                required
                maxLength={64}
                help={t({
                  id: 'auth.reset.passwordHelp',
                  defaultMessage: 'Must contain: 8 to 24 characters; uppercase and lowercase letters; number',
                })}
                error={hint('password')}
                {...bind('password')}
              />
              <TextField
                label={t({ id: 'auth.reset.confirm', defaultMessage: 'Confirm password' })}
                type="password"
                name="confirm"
                autoComplete="new-password"
                required
                maxLength={64}
                error={hint('confirm')}
                {...bind('confirm')}
              />
              <Button
                type="submit"
                variant="primary"
                size="lg"
                className="auth-card__submit"
                disabled={!allValid || submitting}
              >
                <Message id="auth.reset.submit" defaultMessage="Set password and log in" />
              </Button>
            </form>
          </>
        )}
      </section>
    </div>
  );
}
