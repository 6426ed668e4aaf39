import { EMAIL_PATTERN } from '@cats/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { CheckIcon } from '../../../components/icons.tsx';
import { api, ApiError, noServerResponse } from '../../../lib/api-client.ts';
import { translate } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { AuthLogoLink } from '../components/auth-logo-link.tsx';
import { useCheckedFields } from '../components/checked-fields.ts';
import { FormError } from '../components/form-error.tsx';
import '../components/auth-card.css';

function forgotErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError) || err.status === null) return noServerResponse();
  if (err.status === 429)
    return translate({
      id: 'auth.forgot.tooMany',
      defaultMessage: 'Too many requests, please try again later',
    });
  if (err.status === 400)
    return translate({
      id: 'auth.forgot.emailHint',
      defaultMessage: 'Please check you have entered your email correctly.',
    });
  return translate({ id: 'auth.forgot.failed', defaultMessage: 'Request failed' });
}

/**
 * 'Forgot password?' (issue 29): asks for a link by email. The answer is the same whether or not an
 * account uses the address, so this page says the same too.
 */
export default function ForgotPasswordPage() {
  const emailRef = useRef<HTMLInputElement>(null);
  const [errorMessage, setErrorMessage] = useState('');
  const {
    values,
    allValid: valid,
    showHint,
    reveal,
    bind,
  } = useCheckedFields(
    { email: '' },
    (v) => ({ email: EMAIL_PATTERN.test(v.email.trim()) }),
    () => setErrorMessage(''),
  );
  const email = values.email;
  const [submitting, setSubmitting] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const t = useTranslate();

  useEffect(() => {
    emailRef.current?.focus();
  }, []);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!valid) {
      reveal('email');
      return;
    }
    setSubmitting(true);
    try {
      await api('/api/password/forgot', { method: 'POST', body: { email: email.trim() }, anonymous: true });
      setSentTo(email.trim());
    } catch (err) {
      setErrorMessage(forgotErrorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="auth-screen">
      <title>
        {t({ id: 'auth.forgot.pageTitle', defaultMessage: 'Forgot password · Neighbourhood Cats' })}
      </title>
      <section className="auth-card" aria-labelledby="forgot-title">
        <AuthLogoLink />
        <h1 id="forgot-title" className="auth-card__title">
          <Message id="auth.forgot.heading" defaultMessage="Forgot your password?" />
        </h1>
        {sentTo === null ? (
          <>
            <p className="muted">
              <Message
                id="auth.forgot.lead"
                defaultMessage="Enter the email you log in with. We will send you a link to choose a new password."
              />
            </p>
            <FormError message={errorMessage} />
            <form onSubmit={onSubmit} noValidate>
              <TextField
                ref={emailRef}
                label={t({ id: 'auth.field.email', defaultMessage: 'Email' })}
                type="email"
                name="email"
                autoComplete="email"
                required
                maxLength={254}
                error={
                  showHint('email')
                    ? t({
                        id: 'auth.forgot.emailHint',
                        defaultMessage: 'Please check you have entered your email correctly.',
                      })
                    : null
                }
                {...bind('email')}
              />
              <Button
                type="submit"
                variant="primary"
                size="lg"
                className="auth-card__submit"
                disabled={!valid || submitting}
              >
                <Message id="auth.forgot.submit" defaultMessage="Send me a link" />
              </Button>
            </form>
          </>
        ) : (
          <div className="auth-card__result">
            <p className="notice notice--success" role="status">
              <CheckIcon size={20} />
              <span>
                <Message
                  id="auth.forgot.sent"
                  defaultMessage="If an account uses {email}, we have sent it a link to choose a new password. The link works for 30 minutes. Check your inbox (and your spam folder)."
                  values={{ email: <strong translate="no">{sentTo}</strong> }}
                />
              </span>
            </p>
            <Button variant="secondary" onClick={() => setSentTo(null)}>
              <Message id="auth.forgot.again" defaultMessage="Send another link" />
            </Button>
          </div>
        )}
        <div className="auth-card__footer">
          <p>
            <Message
              id="auth.forgot.remembered"
              defaultMessage="Remembered it? <link>Log in</link>"
              values={{ link: (chunks) => <Link to="/login">{chunks}</Link> }}
            />
          </p>
        </div>
      </section>
    </div>
  );
}
