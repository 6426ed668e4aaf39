import { Link, useNavigate } from 'react-router';
import { Button, buttonClass } from '../components/button.tsx';
import { Logo } from '../components/logo.tsx';
import { Message, useTranslate } from '../i18n/message.tsx';
import './status-page.css';

/** Spec section 2: any unknown path. */
export default function NotFoundPage() {
  const navigate = useNavigate();
  const t = useTranslate();
  const goBack = () => {
    // React Router numbers its history entries; at 0 there is nothing of ours to go back to.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate('/');
  };
  return (
    <div className="status-page">
      <title>{t({ id: 'notFound.title', defaultMessage: 'Page not found · Neighbourhood Cats' })}</title>
      <div className="status-page__card">
        <Logo size={72} />
        {/* The status code, a number in every language. */}
        <p className="status-page__code" aria-hidden="true">
          {404}
        </p>
        <h1>
          <Message id="notFound.heading" defaultMessage="Oops! Page Not Found" />
        </h1>
        <p className="status-page__detail">
          <Message id="notFound.detail" defaultMessage="This page has wandered off, the way cats do." />
        </p>
        <div className="status-page__actions">
          <Link className={buttonClass('primary')} to="/">
            <Message id="app.goHome" defaultMessage="Go to the homepage" />
          </Link>
          <Button variant="secondary" onClick={goBack}>
            <Message id="notFound.goBack" defaultMessage="Go back" />
          </Button>
        </div>
      </div>
    </div>
  );
}
