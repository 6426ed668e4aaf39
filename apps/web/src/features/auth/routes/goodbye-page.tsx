import { Link } from 'react-router';
import { buttonClass } from '../../../components/button.tsx';
import { Logo } from '../../../components/logo.tsx';
import '../components/auth-card.css';

/** Spec section 2: shown after the account was deleted. */
export default function GoodbyePage() {
  return (
    <div className="auth-screen">
      <title>Goodbye · Neighbourhood Cats</title>
      <div className="auth-card auth-card--center">
        <Logo size={80} />
        <h1>Goodbye</h1>
        <p className="auth-card__lead">Your account has been deleted.</p>
        <p className="muted">Thank you for looking out for the neighbourhood&apos;s cats.</p>
        <Link className={buttonClass('primary')} to="/">
          Go to the homepage
        </Link>
      </div>
    </div>
  );
}
