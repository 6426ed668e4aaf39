import { lazy, Suspense, useState, type ComponentType } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router';
import { memberMessages } from '../i18n/i18n-store.ts';
import { earlyLinksAdded } from '../lib/early-requests.ts';
import { HomeRoute } from './home-route.tsx';
import { RootLayout } from './layouts/root-layout.tsx';
import { PersistLogin } from './persist-login.tsx';
import { RequireAuth } from './require-auth.tsx';
import { RouteErrorBoundary } from './route-error.tsx';

type ScreenModule = Promise<{ default: ComponentType }>;

/** How to start loading each screen's code before it renders (see AppRoutes). */
const preloads = new WeakMap<object, () => void>();

/**
 * Loads a route module on first visit, so each screen is its own chunk (the map stays off the landing
 * page). A declarative router with React.lazy rather than a data router: React Router's data layer is
 * 17 KB gzipped that the landing page would load for nothing (issue 8, point 3; docs/performance.md).
 */
const page = (load: () => ScreenModule): Pick<RouteObject, 'element'> => {
  const Screen = lazy(load);
  const element = <Screen />;
  preloads.set(element, () => void load());
  return { element };
};

/** A member screen: its code and the query cache (TanStack Query) load together, in parallel. */
const memberPage = (load: () => ScreenModule): Pick<RouteObject, 'element'> => {
  const Screen = lazy(async () => {
    const [{ default: Content }, { default: QueryProvider }] = await Promise.all([
      load(),
      import('./query-provider.tsx'),
      // The member screens' texts in the reader's language (nothing to wait for in English).
      memberMessages(),
    ]);
    return {
      default: () => (
        <QueryProvider>
          <Content />
        </QueryProvider>
      ),
    };
  });
  const element = <Screen />;
  preloads.set(element, () => {
    void load();
    void import('./query-provider.tsx');
    void memberMessages();
  });
  return { element };
};

const landing = page(() => import('../features/landing/routes/landing-page.tsx'));

/** The home page: the landing for visitors, the feed for members (HomeRoute); the same early preload. */
const home = (): Pick<RouteObject, 'element'> => {
  const element = <HomeRoute landing={landing.element} />;
  preloads.set(element, () => preloads.get(landing.element as object)?.());
  return { element };
};

/** Every URL of the spec (section 2), in one place. */
export const routes: RouteObject[] = [
  {
    element: <PersistLogin />,
    children: [
      {
        path: '/',
        element: <RootLayout />,
        children: [
          { index: true, ...home() },
          // The landing page for everyone, members included (linked from About; issue 28, point 8).
          { path: 'welcome', ...landing },
          { path: 'login', ...page(() => import('../features/auth/routes/login-page.tsx')) },
          { path: 'signup', ...page(() => import('../features/auth/routes/signup-page.tsx')) },
          { path: 'goodbye', ...page(() => import('../features/auth/routes/goodbye-page.tsx')) },
          // Issue 29: the mailed links' pages work signed out (their token is the credential).
          {
            path: 'forgot-password',
            ...page(() => import('../features/auth/routes/forgot-password-page.tsx')),
          },
          {
            path: 'reset-password',
            ...page(() => import('../features/auth/routes/reset-password-page.tsx')),
          },
          {
            path: 'confirm-email',
            ...page(() => import('../features/auth/routes/confirm-email-page.tsx')),
          },
          {
            element: <RequireAuth />,
            children: [
              { path: 'about', ...memberPage(() => import('../features/about/routes/about-page.tsx')) },
              { path: 'feed', ...memberPage(() => import('../features/feed/routes/feed-page.tsx')) },
              { path: 'explore', ...memberPage(() => import('../features/explore/routes/explore-page.tsx')) },
              { path: 'spot', ...memberPage(() => import('../features/spot/routes/spot-page.tsx')) },
              {
                path: 'posts/:postId',
                ...memberPage(() => import('../features/post/routes/post-page.tsx')),
              },
              { path: 'cats', ...memberPage(() => import('../features/cats/routes/cats-page.tsx')) },
              { path: 'cats/:catId', ...memberPage(() => import('../features/cats/routes/cat-page.tsx')) },
              { path: 'groups', ...memberPage(() => import('../features/groups/routes/groups-page.tsx')) },
              {
                path: 'groups/:groupId',
                ...memberPage(() => import('../features/groups/routes/group-page.tsx')),
              },
              {
                path: 'notifications',
                ...memberPage(() => import('../features/notifications/routes/notifications-page.tsx')),
              },
              {
                path: 'moderation',
                ...memberPage(() => import('../features/moderation/routes/moderation-page.tsx')),
              },
              {
                // Issue 27: notifications about moderation decisions and reports lead here.
                path: 'settings/moderation',
                ...memberPage(() => import('../features/account/routes/moderation-decisions-page.tsx')),
              },
              {
                path: 'profile',
                children: [
                  {
                    index: true,
                    ...memberPage(() => import('../features/profiles/routes/profile-index.tsx')),
                  },
                  {
                    path: 'me',
                    ...memberPage(() => import('../features/profiles/routes/my-profile-page.tsx')),
                  },
                  {
                    path: 'settings',
                    ...memberPage(() => import('../features/account/routes/settings-page.tsx')),
                  },
                  {
                    path: 'trash',
                    ...memberPage(() => import('../features/trash/routes/trash-page.tsx')),
                  },
                  {
                    path: ':userId',
                    ...memberPage(() => import('../features/profiles/routes/user-profile-page.tsx')),
                  },
                ],
              },
            ],
          },
          { path: '*', ...page(() => import('./not-found-page.tsx')) },
        ],
      },
    ],
  },
];

/**
 * The screens for the current URL. Nothing shows while the first screen's code loads (it is quick);
 * later navigations keep the current screen until the next one is ready (the router renders them in
 * a transition). A screen that throws shows the spec's 'Unexpected Application Error!' screen.
 */
export function AppRoutes() {
  const location = useLocation();
  // The first screen's code starts downloading at once, alongside the session restore (PersistLogin
  // renders no route until the refresh answers). Modules load once: the later lazy() call reuses it.
  // On the screens boot.ts preloads, once its links are in (earlyLinksAdded says why).
  useState(() =>
    earlyLinksAdded().then(() =>
      matchRoutes(routes, location)?.forEach((m) => preloads.get(m.route.element as object)?.()),
    ),
  );
  const element = useRoutes(routes, location);
  const { pathname } = location;
  return (
    <RouteErrorBoundary path={pathname}>
      <Suspense fallback={null}>{element}</Suspense>
    </RouteErrorBoundary>
  );
}
