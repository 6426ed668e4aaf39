import { Link } from 'react-router';
import { buttonClass } from '../../../components/button.tsx';
import { Logo } from '../../../components/logo.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import '../components/auth-card.css';

/** Spec section 2: shown after the account was deleted. */
export default function GoodbyePage() {
  const t = useTranslate();
  return (
    <div className="auth-screen">
      <title>{t({ id: 'auth.goodbye.pageTitle', defaultMessage: 'Goodbye · Neighbourhood Cats' })}</title>
      <div className="auth-card auth-card--center">
        <Logo size={80} />
        <h1>
          <Message id="auth.goodbye.heading" defaultMessage="Goodbye" />
        </h1>
        <p className="auth-card__lead">
          <Message id="auth.goodbye.deleted" defaultMessage="Your account has been deleted." />
        </p>
        <p className="muted">
          <Message
            id="auth.goodbye.thanks"
            defaultMessage="Thank you for looking out for the neighbourhood's cats."
          />
        </p>
        <Link className={buttonClass('primary')} to="/">
          <Message id="auth.goodbye.home" defaultMessage="Go to the homepage" />
        </Link>
      </div>
    </div>
  );
}
