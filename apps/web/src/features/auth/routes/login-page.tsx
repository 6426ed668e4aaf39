import { AUTH_MESSAGES, DEMO_EMAIL, DEMO_PASSWORD, type TokenResponse } from '@cats/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, type Location } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { Checkbox, TextField } from '../../../components/form-field.tsx';
import { InfoIcon } from '../../../components/icons.tsx';
import { ApiError, api } from '../../../lib/api-client.ts';
import { authStore, getPersist, setPersist } from '../../../lib/auth-store.ts';
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

/** Spec section 8, login errors. */
function loginErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError) || err.status === null) return 'No Server Response';
  if (err.status === 400) return AUTH_MESSAGES.missingCredentials;
  if (err.status === 401) return AUTH_MESSAGES.unauthorized;
  // Throttling is ours, not the spec's: say why rather than a bare 'Login Failed'.
  if (err.status === 429) return AUTH_MESSAGES.tooManyAttempts;
  // A suspension (issue 27) says why and until when: the server's sentence, as it is.
  if (isSuspension(err)) return err.message;
  return 'Login Failed';
}

/** The 403 a suspended account gets at login (issue 27), rather than a spec error. */
const isSuspension = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.status === 403 && err.message.startsWith('Your account is suspended');

export default function LoginPage() {
  const location = useLocation();
  // A new visit (for example 'Log in as demo user' clicked while here) starts a fresh form.
  return <LoginForm key={location.key} state={(location.state as LoginState | null) ?? {}} />;
}

function LoginForm({ state }: { state: LoginState }) {
  const navigate = useNavigate();
  const emailRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const [email, setEmail] = useState(state.demo ? DEMO_EMAIL : '');
  const [password, setPassword] = useState(state.demo ? DEMO_PASSWORD : '');
  const [remember, setRemember] = useState(getPersist);
  const [errorMessage, setErrorMessage] = useState('');
  const [submitting, setSubmitting] = useState(false);
  /** The credentials a suspended account signed in with: they read why and appeal with them. */
  const [suspended, setSuspended] = useState<{ email: string; password: string } | null>(null);

  useEffect(() => {
    emailRef.current?.focus();
  }, []);
  useEffect(() => {
    if (errorMessage) errorRef.current?.focus();
  }, [errorMessage]);

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
      <title>Log in · Neighbourhood Cats</title>
      <section className="auth-card" aria-labelledby="login-title">
        <AuthLogoLink />
        <h1 id="login-title" className="auth-card__title">
          Log in
        </h1>
        <p className="muted">Welcome back! The cats have missed you.</p>
        <div className="auth-card__hint">
          <InfoIcon size={20} />
          <p>
            Just looking around? Log in as the demo user with the email <code>{DEMO_EMAIL}</code> and the
            password <code>{DEMO_PASSWORD}</code>.
          </p>
        </div>
        <FormError ref={errorRef} message={errorMessage} />
        {suspended ? <SuspensionAppeal credentials={suspended} /> : null}
        <form onSubmit={onSubmit}>
          <TextField
            ref={emailRef}
            label="Email"
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
            label="Password"
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
              label="Remember me"
              checked={remember}
              onChange={(e) => {
                setRemember(e.target.checked);
                setPersist(e.target.checked);
              }}
            />
          </div>
          <Button
            type="submit"
            variant="primary"
            size="lg"
            className="auth-card__submit"
            disabled={submitting}
          >
            Log In
          </Button>
        </form>
        <div className="auth-card__footer">
          <p>
            Need an account? <Link to="/signup">Sign up</Link>
          </p>
        </div>
      </section>
    </div>
  );
}
