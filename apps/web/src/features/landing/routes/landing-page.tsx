import { useRef } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/button.tsx';
import { ArrowDownIcon, CameraIcon, GroupsIcon, MapIcon } from '../../../components/icons.tsx';
import { Logo } from '../../../components/logo.tsx';
import { useAuth } from '../../../lib/auth-store.ts';
import './landing-page.css';

const SCREENS = [
  {
    src: '/screens/feed.svg',
    title: 'Feed',
    alt: 'The feed on a phone: a post of a ginger cat sitting on a garden wall, with likes, comments and a caption.',
  },
  {
    src: '/screens/explore.svg',
    title: 'Explore',
    alt: 'The map on a phone: small cat pictures mark where each cat was spotted; one is open with its post.',
  },
  {
    src: '/screens/spot.svg',
    title: 'Spot',
    alt: 'Posting a photo on a phone: a black and white cat being cropped, a comment and the location switch.',
  },
] as const;

const FEATURES = [
  {
    Icon: CameraIcon,
    title: 'Take pictures',
    text: 'Take pictures of the cats you meet, straight from your camera or gallery.',
  },
  {
    Icon: GroupsIcon,
    title: 'Share',
    text: 'Connect with people and discover cats worldwide.',
  },
  {
    Icon: MapIcon,
    title: 'Explore',
    text: 'Track the cats of your friend groups on a map.',
  },
] as const;

/** Our real stack, by kind of technology (spec section 1: 'Made using'). */
const STACK = [
  { kind: 'Database', name: 'PostgreSQL' },
  { kind: 'Server framework', name: 'Fastify' },
  { kind: 'UI library', name: 'React' },
  { kind: 'Server runtime', name: 'Node.js' },
] as const;

/** Spec section 1: the public landing page. Kept free of heavy dependencies: it is the first thing loaded. */
export default function LandingPage() {
  const { accessToken } = useAuth();
  const screensRef = useRef<HTMLElement>(null);

  const scrollToScreens = () => {
    const target = screensRef.current;
    if (!target) return;
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    target.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
    // Move keyboard and screen reader users along with the view.
    target.focus({ preventScroll: true });
  };

  return (
    <div className="landing">
      <title>Neighbourhood Cats</title>
      <section className="landing-hero" aria-labelledby="landing-title">
        <div className="landing-hero__inner">
          <Logo className="landing-hero__logo" size={132} />
          <h1 id="landing-title" className="landing-hero__title">
            Neighbourhood Cats
          </h1>
          <p className="landing-hero__tagline">
            Photograph the cats on your street, share them with your neighbours and see on a map where they
            were spotted.
          </p>
          <div className="landing-hero__actions">
            {accessToken ? (
              <Link className={buttonClass('accent', 'lg')} to="/feed">
                Open your feed
              </Link>
            ) : (
              <>
                <Link className={buttonClass('accent', 'lg')} to="/signup">
                  Create an account
                </Link>
                <Link
                  className={buttonClass('secondary', 'lg', 'landing-hero__demo')}
                  to="/login"
                  state={{ demo: true }}
                >
                  Try the demo
                </Link>
              </>
            )}
          </div>
          <button type="button" className="landing-hero__scroll" onClick={scrollToScreens}>
            <span>See the app</span>
            <ArrowDownIcon size={20} />
          </button>
        </div>
        <svg
          className="landing-hero__roofs"
          viewBox="0 0 1440 120"
          preserveAspectRatio="none"
          aria-hidden="true"
        >
          <path d="M0 120V78l60-30 60 30V60h40V40l50-26 50 26v32h70V50l45-24 45 24v40h60V62l70-36 70 36v30h40V56l55-30 55 30v36h80V44l60-32 60 32v42h50V66l45-22 45 22v26h70V50l60-30 60 30v70z" />
        </svg>
      </section>

      <section
        ref={screensRef}
        id="screenshots"
        className="landing-section landing-screens"
        aria-labelledby="screens-title"
        tabIndex={-1}
      >
        <h2 id="screens-title" className="landing-section__title">
          A look inside
        </h2>
        {/* On phones the list scrolls sideways; tabIndex lets keyboards scroll it too. */}
        <ul className="landing-screens__list" tabIndex={0} aria-label="App screens">
          {SCREENS.map((s) => (
            <li key={s.src} className="landing-screens__item">
              <figure className="landing-phone">
                <img src={s.src} alt={s.alt} width={300} height={620} loading="lazy" decoding="async" />
                <figcaption>{s.title}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section className="landing-section" aria-labelledby="features-title">
        <h2 id="features-title" className="landing-section__title">
          What you can do
        </h2>
        <ul className="landing-features">
          {FEATURES.map(({ Icon, title, text }) => (
            <li key={title} className="landing-feature">
              <span className="landing-feature__icon">
                <Icon size={28} />
              </span>
              <h3>{title}</h3>
              <p>{text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="landing-section landing-about" aria-labelledby="about-title">
        <h2 id="about-title" className="landing-section__title">
          Every street has its cats
        </h2>
        <p>
          Neighbourhood Cats is a free app for the people who stop to say hello to the cats on their way. Post
          a photo when you meet one, like and comment on the cats others have found, and follow on the map
          where they like to sit. Form a group with friends to keep track of the cats you all look after.
        </p>
        <p>
          Your privacy comes first: others see your cats&apos; locations only roughly unless you choose
          otherwise. <Link to="/signup">Sign up</Link> and start with the cat next door.
        </p>
      </section>

      <section className="landing-section landing-stack" aria-labelledby="stack-title">
        <h2 id="stack-title" className="landing-section__title">
          Made using
        </h2>
        <dl className="landing-stack__list">
          {STACK.map(({ kind, name }) => (
            <div key={kind} className="landing-stack__item">
              <dt>{kind}</dt>
              <dd>{name}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
