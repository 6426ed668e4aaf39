import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Logo } from '../../components/logo.tsx';
import { OfflineBar } from '../../components/offline-bar.tsx';
import { SiteFooter } from '../../components/site-footer.tsx';
import { ToastRegion } from '../../components/toast.tsx';
import { Message, useTranslate } from '../../i18n/message.tsx';
import { isSignedIn, useAuth } from '../../lib/auth-store.ts';
import { ScrollRestoration } from '../scroll-restoration.tsx';
import { VisitorNav } from './visitor-nav.tsx';
import './root-layout.css';

/** Members' navigation, with the query cache its profile picture needs: off the landing page's code. */
const MemberNav = lazy(async () => {
  const [{ MemberNav: Nav }, { default: QueryProvider }] = await Promise.all([
    import('./top-nav.tsx'),
    import('../query-provider.tsx'),
  ]);
  return {
    default: () => (
      <QueryProvider>
        <Nav />
      </QueryProvider>
    ),
  };
});

/** Screens that end with the site footer: the public, informational ones. */
const FOOTER_PATHS = new Set(['/', '/welcome', '/about', '/goodbye']);

/** The page frame: skip link, top bar with logo and navigation, main region, footer where it belongs. */
export function RootLayout() {
  const member = isSignedIn(useAuth());
  const { pathname } = useLocation();
  const t = useTranslate();
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  // After a client-side navigation, move focus to the new screen (as a page load would), unless the
  // screen already focused something of its own, such as the login form's first field.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const main = mainRef.current;
    // Nor when the person has already opened a menu in the bar (a slow screen can finish loading after
    // the first tap on 'Profile'): taking focus would close it under their finger.
    const active = document.activeElement;
    if (active?.closest('[aria-expanded="true"], .dropdown__panel:not([hidden])')) return;
    if (main && !main.contains(active)) main.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <div className={`app${member ? ' app--member' : ''}`}>
      <a className="skip-link" href="#main">
        <Message id="nav.skipToMain" defaultMessage="Skip to main content" />
      </a>
      <header className="topbar">
        <div className="topbar__inner">
          <Link to="/" className="topbar__brand">
            <Logo size={38} />
            <span className="topbar__name">
              <Message id="app.name" defaultMessage="Neighbourhood Cats" />
            </span>
          </Link>
          {member ? (
            <Suspense
              fallback={
                <nav className="member-nav" aria-label={t({ id: 'nav.main', defaultMessage: 'Main' })} />
              }
            >
              <MemberNav />
            </Suspense>
          ) : (
            <VisitorNav />
          )}
        </div>
        <OfflineBar />
      </header>
      <main id="main" ref={mainRef} tabIndex={-1} className="app__main">
        <Outlet />
      </main>
      {FOOTER_PATHS.has(pathname) && <SiteFooter />}
      <ToastRegion />
      <ScrollRestoration />
    </div>
  );
}
