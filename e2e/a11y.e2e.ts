import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, DESKTOP, PHONE, screenshot } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { loginInAnyLanguage, signInThroughApi } from './support/api.ts';
import {
  axeViolations,
  DARK_BG,
  LIGHT_BG,
  rootBackground,
  seedNeighbourhood,
  type Neighbourhood,
} from './support/screens.ts';
import { startTileServer, type TileServer } from './support/tiles.ts';

/**
 * Issue 8, point 4: axe-core finds nothing on any screen of the spec, at phone and desktop width. Issue
 * 28: axe runs on every screen in dark mode too (prefers-color-scheme: dark) and in Spanish;
 * dark-mode.e2e.ts checks the rest of dark mode. One of the sweeps (`npm run test:sweeps`, issue 52):
 * the keyboard checks of issue 8 are keyboard.e2e.ts, in `npm test`.
 */

type Language = 'en' | 'es';

interface Screen {
  name: string;
  path: () => string;
  member: boolean;
  /**
   * Something that is on the screen once it has finished loading. `say` picks the screen's text in the
   * sweep's language (the English the component shows, or its Spanish from the catalogue).
   */
  ready: (page: Page, say: (english: string, spanish: string) => string) => Promise<unknown>;
}

describe('accessibility', () => {
  let server: RunningServer;
  let tiles: TileServer;
  let browser: Browser;
  let seeded: Neighbourhood;
  const contexts: BrowserContext[] = [];
  /** The member, signed in once (through the API); each test opens its pages here. */
  let member: BrowserContext;
  /** The same member in a browser set to Spanish, signed in when a Spanish sweep first needs it. */
  let spanishMember: BrowserContext | undefined;

  beforeAll(async () => {
    tiles = await startTileServer();
    [server, browser] = await Promise.all([
      startServer({ env: { MAP_TILE_URL: tiles.template } }),
      launchBrowser(),
    ]);
    seeded = await seedNeighbourhood(server.url);
    // One sign-in for the file instead of one per test and combination (a third of a sweep's set-up on
    // a busy machine). One context rather than a shared storageState: the refresh cookie rotates, and
    // a copy used after its rotation would count as a stolen token.
    member = await newPatientContext();
    const page = await member.newPage();
    await signInThroughApi(page, seeded.member, null);
    await page.close();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await browser?.close();
    await server?.dispose();
    await tiles?.close();
  });

  async function newPatientContext(language: Language = 'en'): Promise<BrowserContext> {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: DESKTOP,
      locale: language === 'es' ? 'es-ES' : 'en-GB',
    });
    contexts.push(context);
    context.setDefaultTimeout(60_000);
    return context;
  }

  /**
   * A new page at this width and colour scheme: a visitor's in a context of its own, or one in the
   * member's signed-in context. setViewportSize and emulateMedia set what the context's viewport and
   * colorScheme options would (the screen's size follows the viewport in both).
   */
  async function openPage(
    viewport: { width: number; height: number },
    signedIn: boolean,
    colorScheme: 'light' | 'dark' = 'light',
    language: Language = 'en',
  ): Promise<Page> {
    const session = signedIn ? await memberIn(language) : await newPatientContext(language);
    // The member's earlier page closes first (a failed test's stays open for its report till then):
    // two tabs of one session would refresh it on their own.
    if (signedIn) await Promise.all(session.pages().map((p) => p.close()));
    const page = await session.newPage();
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme });
    return page;
  }

  /** The member's signed-in context for the language (the Spanish one signs in on first use). */
  async function memberIn(language: Language): Promise<BrowserContext> {
    if (language === 'en') return member;
    if (!spanishMember) {
      spanishMember = await newPatientContext('es');
      const page = await spanishMember.newPage();
      await loginInAnyLanguage(page, seeded.member);
      await page.close();
    }
    return spanishMember;
  }

  const heading = (page: Page, name: string | RegExp) =>
    page.getByRole('heading', { name }).first().waitFor();

  const screens: Screen[] = [
    { name: 'landing', path: () => '/', member: false, ready: (p) => heading(p, /Neighbourhood Cats/i) },
    {
      name: 'login',
      path: () => '/login',
      member: false,
      ready: (p, say) => p.getByLabel(say('Email', 'Correo electrónico')).waitFor(),
    },
    {
      name: 'signup',
      path: () => '/signup',
      member: false,
      ready: (p, say) => p.getByLabel(say('Display name', 'Nombre visible')).waitFor(),
    },
    // Issue 29: the mailed links' pages (a link without its token shows the 'ask again' state).
    {
      name: 'forgot password',
      path: () => '/forgot-password',
      member: false,
      ready: (p, say) => p.getByLabel(say('Email', 'Correo electrónico')).waitFor(),
    },
    {
      name: 'reset password',
      path: () => '/reset-password',
      member: false,
      ready: (p, say) =>
        p.getByRole('link', { name: say('Ask for a new link', 'Pedir un enlace nuevo') }).waitFor(),
    },
    {
      name: 'confirm email',
      path: () => '/confirm-email',
      member: false,
      ready: (p, say) => heading(p, say('Confirm your new email', 'Confirma tu nuevo correo')),
    },
    {
      name: 'goodbye',
      path: () => '/goodbye',
      member: false,
      ready: (p, say) =>
        p.getByText(say('Your account has been deleted.', 'Tu cuenta se ha eliminado.')).waitFor(),
    },
    {
      name: 'not found',
      path: () => '/no-such-page',
      member: false,
      ready: (p, say) => heading(p, say('Oops! Page Not Found', '¡Vaya! Página no encontrada')),
    },
    {
      name: 'feed',
      path: () => '/feed',
      member: true,
      ready: (p) => p.locator('article[data-post-id]').first().waitFor(),
    },
    {
      name: 'explore',
      path: () => '/explore',
      member: true,
      ready: async (p, say) => {
        await p.locator('.leaflet-container').waitFor();
        await p
          .getByText(say('Tracking neighbourhood cats...', 'Buscando gatos del barrio...'))
          .waitFor({ state: 'hidden' });
      },
    },
    {
      name: 'spot',
      path: () => '/spot',
      member: true,
      ready: (p, say) => p.getByRole('button', { name: say('Add a photo', 'Añadir una foto') }).waitFor(),
    },
    {
      name: 'groups',
      path: () => '/groups',
      member: true,
      ready: (p, say) =>
        p.getByText(say('Join or create a group', 'Únete a un grupo o crea uno')).first().waitFor(),
    },
    {
      name: 'group page',
      path: () => `/groups/${seeded.groupId}`,
      member: true,
      ready: (p) => heading(p, 'Axe Street'),
    },
    {
      name: 'my profile',
      path: () => '/profile/me',
      member: true,
      ready: (p) => heading(p, seeded.member.username),
    },
    {
      name: 'other profile',
      path: () => `/profile/${seeded.neighbourId}`,
      member: true,
      ready: (p) => p.locator('article[data-post-id]').first().waitFor(),
    },
    {
      name: 'settings',
      path: () => '/profile/settings',
      member: true,
      ready: (p, say) => p.getByRole('button', { name: say('Delete account', 'Eliminar cuenta') }).waitFor(),
    },
    {
      name: 'trash',
      path: () => '/profile/trash',
      member: true,
      ready: (p, say) => heading(p, say('Trash', 'Papelera')),
    },
    {
      name: 'about',
      path: () => '/about',
      member: true,
      ready: (p, say) => heading(p, say('About Neighbourhood Cats', 'Acerca de Neighbourhood Cats')),
    },
    {
      name: 'post page',
      path: () => `/posts/${seeded.neighbourPost._id}`,
      member: true,
      ready: async (p) => {
        await p.getByText('Waiting by the door').first().waitFor();
        await p.locator('.leaflet-tile-loaded').first().waitFor();
      },
    },
    {
      name: 'cat page',
      path: () => `/cats/${seeded.catId}`,
      member: true,
      ready: (p) => heading(p, 'Pixel'),
    },
    {
      name: 'cats',
      path: () => '/cats',
      member: true,
      ready: (p) => p.getByRole('link', { name: /Pixel/ }).first().waitFor(),
    },
    {
      name: 'notifications',
      path: () => '/notifications',
      member: true,
      ready: (p) => p.locator('.notification--unread').first().waitFor(),
    },
  ];

  /** Links and buttons of the header and navigation that run past the screen's edge, by their text. */
  const pastTheEdge = (page: Page) =>
    page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return Array.from(document.querySelectorAll('header a, header button, nav a, nav button'))
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return box.width > 0 && (box.right > width + 1 || box.left < -1);
        })
        .map((el) => el.textContent?.trim() ?? '');
    });

  // Every screen at both widths, in both colour schemes (issue 28) and both languages (issue 28's
  // 'Done when': every screen in Spanish, axe on each, a screenshot of each), as four sweeps that
  // pair them so that each width meets each scheme and each language once. axe's rules read roles,
  // names and colours, which a language does not change apart from the words; what longer words can
  // break (the header's links past the screen's edge) is checked on every screen of every sweep.
  for (const [sweepName, viewport, colorScheme, language] of [
    ['desktop', DESKTOP, 'light', 'en'],
    ['phone, in Spanish', PHONE, 'light', 'es'],
    ['desktop, dark mode, in Spanish', DESKTOP, 'dark', 'es'],
    ['phone, dark mode', PHONE, 'dark', 'en'],
  ] as const) {
    // Every screen in turn, each with a page load and an axe run: minutes on a slow machine, not 90 s.
    it(`axe finds no violations on any screen (${sweepName})`, { timeout: 300_000 }, async () => {
      const visitor = await openPage(viewport, false, colorScheme, language);
      const signedIn = await openPage(viewport, true, colorScheme, language);
      const say = (english: string, spanish: string) => (language === 'es' ? spanish : english);
      const found: string[] = [];
      for (const screen of screens) {
        const page = screen.member ? signedIn : visitor;
        const path = screen.path();
        await page.goto(path);
        await screen.ready(page, say);
        // The palette asked for is really on (not a light page passing as the dark one), and the
        // language (html lang, which screen readers pronounce by).
        expect(await rootBackground(page), screen.name).toBe(colorScheme === 'dark' ? DARK_BG : LIGHT_BG);
        expect(await page.locator('html').getAttribute('lang'), screen.name).toBe(language);
        for (const v of await axeViolations(page)) found.push(`${screen.name} ${path}: ${v}`);
        for (const text of await pastTheEdge(page)) {
          found.push(`${screen.name} ${path}: '${text}' runs past the screen's edge`);
        }
        if (language === 'es') {
          await screenshot(page, `es${path.replace(/\W+/g, '-')}-${viewport.width}-${colorScheme}`);
        }
      }
      // The member navigation speaks the language too.
      expect(await signedIn.getByRole('navigation', { name: say('Main', 'Principal') }).count()).toBe(1);
      expect(found, found.join('\n')).toEqual([]);
    });
  }
});
