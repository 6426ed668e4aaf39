import { Message } from '../i18n/message.tsx';
import { LanguageSwitch } from './language-switch.tsx';
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
          <Message
            id="footer.credit"
            defaultMessage="© {year} Neighbourhood Cats · Made with care by <author>the Neighbourhood Cats team</author>"
            values={{
              // A string: as a number, ICU would write the year with a thousands separator.
              year: String(year),
              author: (chunks) => (
                <a href={SITE_AUTHOR.url} rel="author">
                  {chunks}
                </a>
              ),
            }}
          />
        </p>
        <LanguageSwitch />
      </div>
    </footer>
  );
}
