import { Link } from 'react-router';
import { Logo } from '../../../components/logo.tsx';

/** Spec section 2: the login and sign-up screens start with the logo linking to /. */
export function AuthLogoLink() {
  return (
    <Link to="/" className="auth-card__logo-link">
      <Logo size={64} title="Neighbourhood Cats home" />
    </Link>
  );
}
