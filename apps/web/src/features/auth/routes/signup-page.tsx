import { EMAIL_PATTERN, USERNAME_PATTERN } from '@cats/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/button.tsx';
import { TextField } from '../../../components/form-field.tsx';
import { CheckIcon, InfoIcon } from '../../../components/icons.tsx';
import { Logo } from '../../../components/logo.tsx';
import { api, ApiError, noServerResponse } from '../../../lib/api-client.ts';
import { defineMessage, translate, type MessageDescriptor } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { AuthLogoLink } from '../components/auth-logo-link.tsx';
import { useCheckedFields } from '../components/checked-fields.ts';
import { FormError } from '../components/form-error.tsx';
import { newPasswordRules } from '../components/new-password-rules.ts';
import '../components/auth-card.css';

type Field = 'email' | 'username' | 'password' | 'confirm';

/** The hints of a field that does not match its pattern (the *_HINT texts of @cats/contracts). */
const HINTS: Record<Field, MessageDescriptor> = {
  email: defineMessage({
    id: 'auth.signup.emailHint',
    defaultMessage: 'Please check you have entered your email correctly.',
  }),
  username: defineMessage({
    id: 'auth.signup.usernameHint',
    defaultMessage: 'Please check you have entered a valid user name.',
  }),
  password: defineMessage({
    id: 'auth.signup.passwordHint',
    defaultMessage: 'Please check your password is valid',
  }),
  confirm: defineMessage({ id: 'auth.signup.confirmHint', defaultMessage: 'Passwords do not match.' }),
};

/** Spec section 8, sign-up errors: 409 shows the server's message. */
function signupErrorMessage(err: unknown): string {
  if (!(err instanceof ApiError) || err.status === null) return noServerResponse();
  if (err.status === 409) return err.message;
  return translate({ id: 'auth.signup.failed', defaultMessage: 'Registration Failed' });
}

export default function SignupPage() {
  const emailRef = useRef<HTMLInputElement>(null);
  const [errorMessage, setErrorMessage] = useState('');
  // The contracts' patterns, the very ones the server enforces (spec section 5).
  const { values, setValues, allValid, showHint, bind } = useCheckedFields<Field>(
    { email: '', username: '', password: '', confirm: '' },
    (v) => ({
      email: EMAIL_PATTERN.test(v.email.trim()),
      username: USERNAME_PATTERN.test(v.username.trim()),
      ...newPasswordRules(v),
    }),
    () => setErrorMessage(''),
  );
  const [submitting, setSubmitting] = useState(false);
  const [createdName, setCreatedName] = useState<string | null>(null);
  const t = useTranslate();

  useEffect(() => {
    emailRef.current?.focus();
  }, []);

  const hint = (field: Field) => (showHint(field) ? t(HINTS[field]) : null);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!allValid) {
      setErrorMessage(t({ id: 'auth.signup.invalid', defaultMessage: 'Invalid Entry' }));
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
      <title>{t({ id: 'auth.signup.pageTitle', defaultMessage: 'Sign up · Neighbourhood Cats' })}</title>
      <section className="auth-card" aria-labelledby="signup-title">
        <AuthLogoLink />
        <h1 id="signup-title" className="auth-card__title">
          <Message id="auth.signup.heading" defaultMessage="Sign up" />
        </h1>
        <p className="muted">
          <Message
            id="auth.signup.lead"
            defaultMessage="Join your neighbours and start sharing the cats of your street."
          />
        </p>
        <div className="auth-card__hint">
          <InfoIcon size={20} />
          <p>
            <Message
              id="auth.signup.construction"
              defaultMessage="This site is under construction: some features are still being built."
            />
          </p>
        </div>
        <FormError message={errorMessage} />
        <form onSubmit={onSubmit}>
          <TextField
            ref={emailRef}
            label={t({ id: 'auth.field.email', defaultMessage: 'Email' })}
            type="email"
            name="email"
            autoComplete="email"
            required
            maxLength={254}
            error={hint('email')}
            {...bind('email')}
          />
          <TextField
            label={t({ id: 'auth.signup.displayName', defaultMessage: 'Display name' })}
            type="text"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            maxLength={40}
            help={t({
              id: 'auth.signup.usernameHelp',
              defaultMessage: '4 to 24 characters. Letters, numbers, underscores, hyphens allowed.',
            })}
            error={hint('username')}
            {...bind('username')}
          />
          <TextField
            label={t({ id: 'auth.field.password', defaultMessage: 'Password' })}
            type="password"
            name="password"
            autoComplete="new-password"
            required
            maxLength={64}
            help={t({
              id: 'auth.signup.passwordHelp',
              defaultMessage: 'Must contain: 8 to 24 characters; uppercase and lowercase letters; number',
            })}
            error={hint('password')}
            {...bind('password')}
          />
          <TextField
            label={t({ id: 'auth.signup.confirm', defaultMessage: 'Confirm password' })}
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
            <Message id="auth.signup.submit" defaultMessage="Sign Up" />
          </Button>
        </form>
        <div className="auth-card__footer">
          <p>
            <Message
              id="auth.signup.registered"
              defaultMessage="Already registered? <link>Log in</link>"
              values={{ link: (chunks) => <Link to="/login">{chunks}</Link> }}
            />
          </p>
          <p className="muted">
            <Message
              id="auth.signup.demo"
              defaultMessage="Just want to look around? You can <link>log in as a demo user</link>."
              values={{
                link: (chunks) => (
                  <Link to="/login" state={{ demo: true }}>
                    {chunks}
                  </Link>
                ),
              }}
            />
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
          <Message
            id="auth.signup.welcome"
            defaultMessage="Welcome to the neighbourhood, {username}!"
            values={{ username }}
          />
        </h1>
        <p className="notice notice--success">
          <CheckIcon size={20} />
          <span>
            <Message id="auth.signup.created" defaultMessage="Account created" />
          </span>
        </p>
        <Link className={buttonClass('primary', 'lg')} to="/login">
          <Message id="auth.signup.logIn" defaultMessage="Log in" />
        </Link>
      </section>
    </div>
  );
}
