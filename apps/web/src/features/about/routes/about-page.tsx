import { Link } from 'react-router';
import { Logo } from '../../../components/logo.tsx';
import { SITE_AUTHOR } from '../../../components/site-footer.tsx';
import './about-page.css';

const TECHNOLOGY = [
  { kind: 'Database', name: 'PostgreSQL', note: 'or PGlite, PostgreSQL embedded, with no set-up' },
  { kind: 'Server framework', name: 'Fastify', note: 'with Drizzle ORM and Zod-checked routes' },
  { kind: 'UI library', name: 'React', note: 'with React Router and TanStack Query' },
  { kind: 'Server runtime', name: 'Node.js', note: 'with TypeScript throughout' },
  { kind: 'Maps', name: 'Leaflet', note: 'for the map of spotted cats' },
  { kind: 'Images', name: 'sharp', note: 'resizing every photo and removing its metadata' },
] as const;

/** Spec section 2: credits the designer and lists the technology used. */
export default function AboutPage() {
  return (
    <div className="page about">
      <title>About · Neighbourhood Cats</title>
      <header className="about__header">
        <Logo size={64} />
        <h1>About Neighbourhood Cats</h1>
        <p className="about__lead">
          A free place to share the cats of your street, and to see where they were spotted.
        </p>
        {/* Members who open / go to their feed (issue 28): the landing page stays here for them. */}
        <p>
          <Link to="/welcome">See the welcome page</Link>, with what the app does and pictures of its screens.
        </p>
      </header>

      <section className="about__section card" aria-labelledby="about-credits">
        <h2 id="about-credits">Credits</h2>
        <p>
          Designed and built by <a href={SITE_AUTHOR.url}>{SITE_AUTHOR.name}</a>: the logo, the colours, the
          illustrations and the screens are our own.
        </p>
        <p className="muted">
          Every cat picture in the sample neighbourhood is an illustration, and every photo you share is
          resized and stripped of its hidden metadata before anyone else sees it.
        </p>
      </section>

      <section className="about__section card" aria-labelledby="about-tech">
        <h2 id="about-tech">Technology used</h2>
        <dl className="about__tech">
          {TECHNOLOGY.map(({ kind, name, note }) => (
            <div key={kind} className="about__tech-item">
              <dt>{kind}</dt>
              <dd>
                <strong>{name}</strong> <span className="muted">{note}</span>
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
