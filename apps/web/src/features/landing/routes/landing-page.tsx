import { useRef } from 'react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/button.tsx';
import { ArrowDownIcon, CameraIcon, GroupsIcon, MapIcon } from '../../../components/icons.tsx';
import { Logo } from '../../../components/logo.tsx';
import { useAuth } from '../../../lib/auth-store.ts';
import { defineMessage } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import './landing-page.css';

const SCREENS = [
  {
    src: '/screens/feed.svg',
    title: defineMessage({ id: 'landing.screens.feed.title', defaultMessage: 'Feed' }),
    alt: defineMessage({
      id: 'landing.screens.feed.alt',
      defaultMessage:
        'The feed on a phone: a post of a ginger cat sitting on a garden wall, with likes, comments and a caption.',
    }),
  },
  {
    src: '/screens/explore.svg',
    title: defineMessage({ id: 'landing.screens.explore.title', defaultMessage: 'Explore' }),
    alt: defineMessage({
      id: 'landing.screens.explore.alt',
      defaultMessage:
        'The map on a phone: small cat pictures mark where each cat was spotted; one is open with its post.',
    }),
  },
  {
    src: '/screens/spot.svg',
    title: defineMessage({ id: 'landing.screens.spot.title', defaultMessage: 'Spot' }),
    alt: defineMessage({
      id: 'landing.screens.spot.alt',
      defaultMessage:
        'Posting a photo on a phone: a black and white cat being cropped, a comment and the location switch.',
    }),
  },
] as const;

const FEATURES = [
  {
    Icon: CameraIcon,
    key: 'pictures',
    title: defineMessage({ id: 'landing.features.pictures.title', defaultMessage: 'Take pictures' }),
    text: defineMessage({
      id: 'landing.features.pictures.text',
      defaultMessage: 'Take pictures of the cats you meet, straight from your camera or gallery.',
    }),
  },
  {
    Icon: GroupsIcon,
    key: 'share',
    title: defineMessage({ id: 'landing.features.share.title', defaultMessage: 'Share' }),
    text: defineMessage({
      id: 'landing.features.share.text',
      defaultMessage: 'Connect with people and discover cats worldwide.',
    }),
  },
  {
    Icon: MapIcon,
    key: 'explore',
    title: defineMessage({ id: 'landing.features.explore.title', defaultMessage: 'Explore' }),
    text: defineMessage({
      id: 'landing.features.explore.text',
      defaultMessage: 'Track the cats of your friend groups on a map.',
    }),
  },
] as const;

/** Our real stack, by kind of technology (spec section 1: 'Made using'). */
const STACK = [
  { kind: defineMessage({ id: 'landing.stack.database', defaultMessage: 'Database' }), name: 'PostgreSQL' },
  {
    kind: defineMessage({ id: 'landing.stack.server', defaultMessage: 'Server framework' }),
    name: 'Fastify',
  },
  { kind: defineMessage({ id: 'landing.stack.ui', defaultMessage: 'UI library' }), name: 'React' },
  {
    kind: defineMessage({ id: 'landing.stack.runtime', defaultMessage: 'Server runtime' }),
    name: 'Node.js',
  },
] as const;

/** Spec section 1: the public landing page. Kept free of heavy dependencies: it is the first thing loaded. */
export default function LandingPage() {
  const { accessToken } = useAuth();
  const screensRef = useRef<HTMLElement>(null);
  const t = useTranslate();

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
      <title>{t({ id: 'app.name', defaultMessage: 'Neighbourhood Cats' })}</title>
      <section className="landing-hero" aria-labelledby="landing-title">
        <div className="landing-hero__inner">
          <Logo className="landing-hero__logo" size={132} />
          <h1 id="landing-title" className="landing-hero__title">
            <Message id="app.name" defaultMessage="Neighbourhood Cats" />
          </h1>
          <p className="landing-hero__tagline">
            <Message
              id="landing.tagline"
              defaultMessage="Photograph the cats on your street, share them with your neighbours and see on a map where they were spotted."
            />
          </p>
          <div className="landing-hero__actions">
            {accessToken ? (
              <Link className={buttonClass('accent', 'lg')} to="/feed">
                <Message id="landing.openFeed" defaultMessage="Open your feed" />
              </Link>
            ) : (
              <>
                <Link className={buttonClass('accent', 'lg')} to="/signup">
                  <Message id="landing.createAccount" defaultMessage="Create an account" />
                </Link>
                <Link
                  className={buttonClass('secondary', 'lg', 'landing-hero__demo')}
                  to="/login"
                  state={{ demo: true }}
                >
                  <Message id="landing.tryDemo" defaultMessage="Try the demo" />
                </Link>
              </>
            )}
          </div>
          <button type="button" className="landing-hero__scroll" onClick={scrollToScreens}>
            <span>
              <Message id="landing.seeApp" defaultMessage="See the app" />
            </span>
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
          <Message id="landing.screens.title" defaultMessage="A look inside" />
        </h2>
        {/* On phones the list scrolls sideways; tabIndex lets keyboards scroll it too. */}
        <ul
          className="landing-screens__list"
          tabIndex={0}
          aria-label={t({ id: 'landing.screens.label', defaultMessage: 'App screens' })}
        >
          {SCREENS.map((s) => (
            <li key={s.src} className="landing-screens__item">
              <figure className="landing-phone">
                <img src={s.src} alt={t(s.alt)} width={300} height={620} loading="lazy" decoding="async" />
                <figcaption>{t(s.title)}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section className="landing-section" aria-labelledby="features-title">
        <h2 id="features-title" className="landing-section__title">
          <Message id="landing.features.heading" defaultMessage="What you can do" />
        </h2>
        <ul className="landing-features">
          {FEATURES.map(({ key, Icon, title, text }) => (
            <li key={key} className="landing-feature">
              <span className="landing-feature__icon">
                <Icon size={28} />
              </span>
              <h3>{t(title)}</h3>
              <p>{t(text)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="landing-section landing-about" aria-labelledby="about-title">
        <h2 id="about-title" className="landing-section__title">
          <Message id="landing.about.title" defaultMessage="Every street has its cats" />
        </h2>
        <p>
          <Message
            id="landing.about.text"
            defaultMessage="Neighbourhood Cats is a free app for the people who stop to say hello to the cats on their way. Post a photo when you meet one, like and comment on the cats others have found, and follow on the map where they like to sit. Form a group with friends to keep track of the cats you all look after."
          />
        </p>
        <p>
          <Message
            id="landing.about.privacy"
            defaultMessage="Your privacy comes first: others see your cats' locations only roughly unless you choose otherwise. <signup>Sign up</signup> and start with the cat next door."
            values={{ signup: (chunks) => <Link to="/signup">{chunks}</Link> }}
          />
        </p>
      </section>

      <section className="landing-section landing-stack" aria-labelledby="stack-title">
        <h2 id="stack-title" className="landing-section__title">
          <Message id="landing.stack.title" defaultMessage="Made using" />
        </h2>
        <dl className="landing-stack__list">
          {STACK.map(({ kind, name }) => (
            <div key={name} className="landing-stack__item">
              <dt>{t(kind)}</dt>
              <dd translate="no">{name}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
