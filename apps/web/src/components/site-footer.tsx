import { Logo } from './logo.tsx';
import './site-footer.css';

/** Who made the app (spec section 1: the footer names the author with a link). */
export const SITE_AUTHOR = {
  name: 'the Neighbourhood Cats team',
  url: 'https://github.com/neighbourhood-cats',
} as const;

/** Page footer with the current year and the author's link. */
export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <Logo size={28} />
        <p className="site-footer__text">
          © {year} Neighbourhood Cats · Made with care by{' '}
          <a href={SITE_AUTHOR.url} rel="author">
            {SITE_AUTHOR.name}
          </a>
        </p>
      </div>
    </footer>
  );
}
