import { Link } from 'react-router';
import { Logo } from '../../../components/logo.tsx';
import { useTranslate } from '../../../i18n/message.tsx';

/** Spec section 2: the login and sign-up screens start with the logo linking to /. */
export function AuthLogoLink() {
  const t = useTranslate();
  return (
    <Link to="/" className="auth-card__logo-link">
      <Logo size={64} title={t({ id: 'auth.logoLink', defaultMessage: 'Neighbourhood Cats home' })} />
    </Link>
  );
}
