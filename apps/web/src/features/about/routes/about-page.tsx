import { Link } from 'react-router';
import { Logo } from '../../../components/logo.tsx';
import { SITE_AUTHOR } from '../../../components/site-footer.tsx';
import { defineMessage } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import './about-page.css';

/** Each kind of technology and what we use it with; the products' names are never translated. */
const TECHNOLOGY = [
  {
    key: 'database',
    kind: defineMessage({ id: 'about.tech.database', defaultMessage: 'Database' }),
    name: 'PostgreSQL',
    note: defineMessage({
      id: 'about.tech.database.note',
      defaultMessage: 'or PGlite, PostgreSQL embedded, with no set-up',
    }),
  },
  {
    key: 'server',
    kind: defineMessage({ id: 'about.tech.server', defaultMessage: 'Server framework' }),
    name: 'Fastify',
    note: defineMessage({
      id: 'about.tech.server.note',
      defaultMessage: 'with Drizzle ORM and Zod-checked routes',
    }),
  },
  {
    key: 'ui',
    kind: defineMessage({ id: 'about.tech.ui', defaultMessage: 'UI library' }),
    name: 'React',
    note: defineMessage({ id: 'about.tech.ui.note', defaultMessage: 'with React Router and TanStack Query' }),
  },
  {
    key: 'runtime',
    kind: defineMessage({ id: 'about.tech.runtime', defaultMessage: 'Server runtime' }),
    name: 'Node.js',
    note: defineMessage({ id: 'about.tech.runtime.note', defaultMessage: 'with TypeScript throughout' }),
  },
  {
    key: 'maps',
    kind: defineMessage({ id: 'about.tech.maps', defaultMessage: 'Maps' }),
    name: 'Leaflet',
    note: defineMessage({ id: 'about.tech.maps.note', defaultMessage: 'for the map of spotted cats' }),
  },
  {
    key: 'images',
    kind: defineMessage({ id: 'about.tech.images', defaultMessage: 'Images' }),
    name: 'sharp',
    note: defineMessage({
      id: 'about.tech.images.note',
      defaultMessage: 'resizing every photo and removing its metadata',
    }),
  },
] as const;

/** Spec section 2: credits the designer and lists the technology used. */
export default function AboutPage() {
  const t = useTranslate();
  return (
    <div className="page about">
      <title>{t({ id: 'about.page.title', defaultMessage: 'About · Neighbourhood Cats' })}</title>
      <header className="about__header">
        <Logo size={64} />
        <h1>
          <Message id="about.heading" defaultMessage="About Neighbourhood Cats" />
        </h1>
        <p className="about__lead">
          <Message
            id="about.lead"
            defaultMessage="A free place to share the cats of your street, and to see where they were spotted."
          />
        </p>
        {/* Members who open / go to their feed (issue 28): the landing page stays here for them. */}
        <p>
          <Message
            id="about.welcome"
            defaultMessage="<link>See the welcome page</link>, with what the app does and pictures of its screens."
            values={{ link: (chunks) => <Link to="/welcome">{chunks}</Link> }}
          />
        </p>
      </header>

      <section className="about__section card" aria-labelledby="about-credits">
        <h2 id="about-credits">
          <Message id="about.credits.heading" defaultMessage="Credits" />
        </h2>
        <p>
          <Message
            id="about.credits.designer"
            defaultMessage="Designed and built by <author>the Neighbourhood Cats team</author>: the logo, the colours, the illustrations and the screens are our own."
            values={{ author: (chunks) => <a href={SITE_AUTHOR.url}>{chunks}</a> }}
          />
        </p>
        <p className="muted">
          <Message
            id="about.credits.pictures"
            defaultMessage="Every cat picture in the sample neighbourhood is an illustration, and every photo you share is resized and stripped of its hidden metadata before anyone else sees it."
          />
        </p>
      </section>

      <section className="about__section card" aria-labelledby="about-tech">
        <h2 id="about-tech">
          <Message id="about.tech.heading" defaultMessage="Technology used" />
        </h2>
        <dl className="about__tech">
          {TECHNOLOGY.map(({ key, kind, name, note }) => (
            <div key={key} className="about__tech-item">
              <dt>{t(kind)}</dt>
              <dd>
                <Message
                  id="about.tech.item"
                  defaultMessage="<strong>{name}</strong> <muted>{note}</muted>"
                  values={{
                    name,
                    note: t(note),
                    strong: (chunks) => <strong translate="no">{chunks}</strong>,
                    muted: (chunks) => <span className="muted">{chunks}</span>,
                  }}
                />
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
