import { DEMO_EMAIL, DEMO_PASSWORD, type TokenResponse } from '@cats/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, type Location } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { Checkbox, TextField } from '../../../components/form-field.tsx';
import { InfoIcon } from '../../../components/icons.tsx';
import { api, ApiError, noServerResponse } from '../../../lib/api-client.ts';
import { authStore, getPersist, setPersist } from '../../../lib/auth-store.ts';
import { translate } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { AuthLogoLink } from '../components/auth-logo-link.tsx';
import { FormError } from '../components/form-error.tsx';
import { SuspensionAppeal } from '../components/suspension-appeal.tsx';
import '../components/auth-card.css';

interface LoginState {
  /** Where the sign-in guard found the person (spec section 2: login returns there). */
  from?: Location;
  /** Set by 'Log in as demo user': the form starts filled with the demo account. */
  demo?: boolean;
}

/** Spec section 8, login errors (the texts of AUTH_MESSAGES in @cats/contracts). */
function loginErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError) || err.status === null) return noServerResponse();
  if (err.status === 400)
    return translate({ id: 'auth.login.missingCredentials', defaultMessage: 'Missing Email or Password' });
  if (err.status === 401) return translate({ id: 'auth.login.unauthorized', defaultMessage: 'Unauthorized' });
  // Throttling is ours, not the spec's: say why rather than a bare 'Login Failed'.
  if (err.status === 429)
    return translate({
      id: 'auth.login.tooManyAttempts',
      defaultMessage: 'Too many login attempts, please try again later',
    });
  // A suspension (issue 27) says why and until when: the server's sentence, in the screen's language.
  if (isSuspension(err)) return err.message;
  return translate({ id: 'auth.login.failed', defaultMessage: 'Login Failed' });
}

/**
 * The 403 a suspended account gets at login (issue 27), rather than a spec error. Login answers 403
 * for nothing else (wrong credentials are 401), and its text is in the reader's language, so the
 * status alone says it.
 */
const isSuspension = (err: unknown): err is ApiError => err instanceof ApiError && err.status === 403;

export default function LoginPage() {
  const location = useLocation();
  // A new visit (for example 'Log in as demo user' clicked while here) starts a fresh form.
  return <LoginForm key={location.key} state={(location.state as LoginState | null) ?? {}} />;
}

function LoginForm({ state }: { state: LoginState }) {
  const navigate = useNavigate();
  const emailRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState(state.demo ? DEMO_EMAIL : '');
  const [password, setPassword] = useState(state.demo ? DEMO_PASSWORD : '');
  const [remember, setRemember] = useState(getPersist);
  const [errorMessage, setErrorMessage] = useState('');
  const [submitting, setSubmitting] = useState(false);
  /** The credentials a suspended account signed in with: they read why and appeal with them. */
  const [suspended, setSuspended] = useState<{ email: string; password: string } | null>(null);
  const t = useTranslate();

  useEffect(() => {
    emailRef.current?.focus();
  }, []);

  const from = state.from ? `${state.from.pathname}${state.from.search}${state.from.hash}` : '/';

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSubmitting(true);
    try {
      const data = await api<TokenResponse>('/api/login', {
        method: 'POST',
        body: { email: email.trim(), password },
        anonymous: true,
      });
      authStore.set({ accessToken: data.accessToken, userId: data.userId, email: email.trim() });
      setEmail('');
      setPassword('');
      await navigate(from, { replace: true });
    } catch (err) {
      setErrorMessage(loginErrorMessage(err));
      setSuspended(isSuspension(err) ? { email: email.trim(), password } : null);
      setSubmitting(false);
    }
  };

  return (
    <div className="auth-screen">
      <title>{t({ id: 'auth.login.pageTitle', defaultMessage: 'Log in · Neighbourhood Cats' })}</title>
      <section className="auth-card" aria-labelledby="login-title">
        <AuthLogoLink />
        <h1 id="login-title" className="auth-card__title">
          <Message id="auth.login.heading" defaultMessage="Log in" />
        </h1>
        <p className="muted">
          <Message id="auth.login.welcome" defaultMessage="Welcome back! The cats have missed you." />
        </p>
        <div className="auth-card__hint">
          <InfoIcon size={20} />
          <p>
            <Message
              id="auth.login.demoHint"
              defaultMessage="Just looking around? Log in as the demo user with the email {email} and the password {password}."
              values={{
                email: <code translate="no">{DEMO_EMAIL}</code>,
                password: <code translate="no">{DEMO_PASSWORD}</code>,
              }}
            />
          </p>
        </div>
        <FormError message={errorMessage} />
        {suspended ? <SuspensionAppeal credentials={suspended} /> : null}
        <form onSubmit={onSubmit}>
          <TextField
            ref={emailRef}
            label={t({ id: 'auth.field.email', defaultMessage: 'Email' })}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setErrorMessage('');
              setSuspended(null);
            }}
          />
          <TextField
            label={t({ id: 'auth.field.password', defaultMessage: 'Password' })}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setErrorMessage('');
              setSuspended(null);
            }}
          />
          <div className="auth-card__row">
            <Checkbox
              label={t({ id: 'auth.login.remember', defaultMessage: 'Remember me' })}
              checked={remember}
              onChange={(e) => {
                setRemember(e.target.checked);
                setPersist(e.target.checked);
              }}
            />
            <Link to="/forgot-password" className="auth-card__forgot">
              <Message id="auth.login.forgot" defaultMessage="Forgot password?" />
            </Link>
          </div>
          <Button
            type="submit"
            variant="primary"
            size="lg"
            className="auth-card__submit"
            disabled={submitting}
          >
            <Message id="auth.login.submit" defaultMessage="Log In" />
          </Button>
        </form>
        <div className="auth-card__footer">
          <p>
            <Message
              id="auth.login.needAccount"
              defaultMessage="Need an account? <link>Sign up</link>"
              values={{ link: (chunks) => <Link to="/signup">{chunks}</Link> }}
            />
          </p>
        </div>
      </section>
    </div>
  );
}
