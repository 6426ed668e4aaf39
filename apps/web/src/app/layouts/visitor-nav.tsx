import { Link, useLocation } from 'react-router';
import { buttonClass } from '../../components/button.tsx';
import { Message, useTranslate } from '../../i18n/message.tsx';
import './top-nav.css';

/** Spec section 2, top navigation for visitors. 'Log in as demo user' opens the login with the demo filled in. */
export function VisitorNav() {
  const { pathname } = useLocation();
  const t = useTranslate();
  return (
    <nav className="visitor-nav" aria-label={t({ id: 'nav.main', defaultMessage: 'Main' })}>
      <ul className="visitor-nav__list">
        <li>
          <Link className="visitor-nav__link visitor-nav__link--demo" to="/login" state={{ demo: true }}>
            <Message id="nav.demoLogin" defaultMessage="Log in as demo user" />
          </Link>
        </li>
        <li>
          <Link
            className="visitor-nav__link"
            to="/login"
            aria-current={pathname === '/login' ? 'page' : undefined}
          >
            <Message id="nav.login" defaultMessage="Log in" />
          </Link>
        </li>
        <li>
          <Link
            className={buttonClass('accent', 'sm', 'visitor-nav__signup')}
            to="/signup"
            aria-current={pathname === '/signup' ? 'page' : undefined}
          >
            <Message id="nav.signup" defaultMessage="Sign up" />
          </Link>
        </li>
      </ul>
    </nav>
  );
}
