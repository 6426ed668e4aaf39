import {
  CONFIRM_HINT,
  EMAIL_HINT,
  EMAIL_PATTERN,
  PASSWORD_HELP,
  PASSWORD_HINT,
  PASSWORD_PATTERN,
  USERNAME_HELP,
  USERNAME_HINT,
  USERNAME_PATTERN,
} from '@cats/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { CheckIcon, InfoIcon } from '../../../components/icons.tsx';
import { Logo } from '../../../components/logo.tsx';
import { ApiError, api } from '../../../lib/api-client.ts';
import { AuthLogoLink } from '../components/auth-logo-link.tsx';
import { FormError } from '../components/form-error.tsx';
import '../components/auth-card.css';

type Field = 'email' | 'username' | 'password' | 'confirm';

/** Spec section 8, sign-up errors: 409 shows the server's message. */
function signupErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError) || err.status === null) return 'No Server Response';
  if (err.status === 409) return err.message;
  return 'Registration Failed';
}

export default function SignupPage() {
  const emailRef = useRef<HTMLInputElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const [values, setValues] = useState<Record<Field, string>>({
    email: '',
    username: '',
    password: '',
    confirm: '',
  });
  // A hint appears once a field has been left with something in it, so nobody is scolded mid-typing.
  const [visited, setVisited] = useState<Record<Field, boolean>>({
    email: false,
    username: false,
    password: false,
    confirm: false,
  });
  const [errorMessage, setErrorMessage] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [createdName, setCreatedName] = useState<string | null>(null);

  useEffect(() => {
    emailRef.current?.focus();
  }, []);
  useEffect(() => {
    if (errorMessage) errorRef.current?.focus();
  }, [errorMessage]);

  // The contracts' patterns, the very ones the server enforces (spec section 5).
  const valid: Record<Field, boolean> = {
    email: EMAIL_PATTERN.test(values.email.trim()),
    username: USERNAME_PATTERN.test(values.username.trim()),
    password: PASSWORD_PATTERN.test(values.password),
    confirm: values.confirm !== '' && values.confirm === values.password,
  };
  const allValid = valid.email && valid.username && valid.password && valid.confirm;
  const hint = (field: Field, text: string) =>
    visited[field] && values[field] !== '' && !valid[field] ? text : null;

  const bind = (field: Field) => ({
    value: values[field],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const value = e.target.value;
      setValues((v) => ({ ...v, [field]: value }));
      setErrorMessage('');
    },
    onBlur: () => setVisited((v) => ({ ...v, [field]: true })),
  });

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!allValid) {
      setErrorMessage('Invalid Entry');
      return;
    }
    setSubmitting(true);
    const username = values.username.trim();
    try {
      await api('/api/signup', {
        method: 'POST',
        body: { username, email: values.email.trim(), password: values.password },
        anonymous: true,
      });
      setCreatedName(username);
      setValues({ email: '', username: '', password: '', confirm: '' });
    } catch (err) {
      setErrorMessage(signupErrorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  if (createdName !== null) return <SignupSuccess username={createdName} />;

  return (
    <div className="auth-screen">
      <title>Sign up · Neighbourhood Cats</title>
      <section className="auth-card" aria-labelledby="signup-title">
        <AuthLogoLink />
        <h1 id="signup-title" className="auth-card__title">
          Sign up
        </h1>
        <p className="muted">Join your neighbours and start sharing the cats of your street.</p>
        <div className="auth-card__hint">
          <InfoIcon size={20} />
          <p>This site is under construction: some features are still being built.</p>
        </div>
        <FormError ref={errorRef} message={errorMessage} />
        <form onSubmit={onSubmit}>
          <TextField
            ref={emailRef}
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            required
            maxLength={254}
            error={hint('email', EMAIL_HINT)}
            {...bind('email')}
          />
          <TextField
            label="Display name"
            type="text"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            maxLength={40}
            help={USERNAME_HELP}
            error={hint('username', USERNAME_HINT)}
            {...bind('username')}
          />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="new-password"
            required
            maxLength={64}
            help={PASSWORD_HELP}
            error={hint('password', PASSWORD_HINT)}
            {...bind('password')}
          />
          <TextField
            label="Confirm password"
            type="password"
            name="confirm"
            autoComplete="new-password"
            required
            maxLength={64}
            error={hint('confirm', CONFIRM_HINT)}
            {...bind('confirm')}
          />
          <Button
            type="submit"
            variant="primary"
            size="lg"
            className="auth-card__submit"
            disabled={!allValid || submitting}
          >
            Sign Up
          </Button>
        </form>
        <div className="auth-card__footer">
          <p>
            Already registered? <Link to="/login">Log in</Link>
          </p>
          <p className="muted">
            Just want to look around? You can{' '}
            <Link to="/login" state={{ demo: true }}>
              log in as a demo user
            </Link>
            .
          </p>
        </div>
      </section>
    </div>
  );
}

function SignupSuccess({ username }: { username: string }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <div className="auth-screen">
      <section className="auth-card auth-card--center" aria-labelledby="signup-done">
        <Logo size={80} />
        <h1 id="signup-done" ref={headingRef} tabIndex={-1} className="auth-card__title">
          Welcome to the neighbourhood, {username}!
        </h1>
        <p className="notice notice--success">
          <CheckIcon size={20} />
          <span>Account created</span>
        </p>
        <Link className={buttonClass('primary', 'lg')} to="/login">
          Log in
        </Link>
      </section>
    </div>
  );
}
