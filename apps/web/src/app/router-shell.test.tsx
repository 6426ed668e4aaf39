import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { Link, MemoryRouter, useLocation, useNavigate, useRoutes } from 'react-router';
import { loadLanguage } from '../i18n/i18n-store.ts';
import { VisitorNav } from './layouts/visitor-nav.tsx';
import { RouteErrorBoundary } from './route-error.tsx';
import { RESTORE_WINDOW_MS, ScrollRestoration } from './scroll-restoration.tsx';

// The pieces that replace the data router (docs/decisions/006-declarative-router.md).

afterEach(cleanup);

function Broken(): never {
  throw new Error('The cat knocked it over');
}

function Shell() {
  const location = useLocation();
  const element = useRoutes([
    { path: '/broken', element: <Broken /> },
    { path: '/fine', element: <p>All good</p> },
  ]);
  return (
    <>
      <Link to="/fine">Fine</Link>
      <RouteErrorBoundary path={location.pathname}>{element}</RouteErrorBoundary>
    </>
  );
}

describe('RouteErrorBoundary', () => {
  beforeEach(() => {
    // React logs caught render errors; they are expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it("shows the spec's error screen with the message, and clears it on navigating elsewhere", () => {
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <Shell />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeTruthy();
    expect(screen.getByText('The cat knocked it over')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the homepage' }).getAttribute('href')).toBe('/');

    fireEvent.click(screen.getByRole('link', { name: 'Fine' }));
    expect(screen.queryByText('Unexpected Application Error!')).toBeNull();
    expect(screen.getByText('All good')).toBeTruthy();
  });

  it('speaks the current language (issue 28)', async () => {
    await act(() => loadLanguage('es'));
    try {
      render(
        <MemoryRouter initialEntries={['/broken']}>
          <Shell />
          <VisitorNav />
        </MemoryRouter>,
      );
      expect(screen.getByRole('heading', { name: '¡Error inesperado de la aplicación!' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Ir a la página de inicio' })).toBeTruthy();
      expect(screen.getByRole('navigation', { name: 'Principal' })).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Registrarse' }).getAttribute('href')).toBe('/signup');
    } finally {
      await act(() => loadLanguage('en'));
    }
  });
});

const navigation: { go: ReturnType<typeof useNavigate> } = { go: () => {} };
function Navigator() {
  const navigate = useNavigate();
  useEffect(() => {
    navigation.go = navigate;
  }, [navigate]);
  return <ScrollRestoration />;
}

/** Renders the feed, scrolls it to `y` and opens a profile, as a reader would before pressing Back. */
function leaveFeedAt(y: number) {
  render(
    <MemoryRouter initialEntries={['/feed']}>
      <Navigator />
    </MemoryRouter>,
  );
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  fireEvent.scroll(window);
  act(() => void navigation.go('/profile/abc'));
}

describe('ScrollRestoration', () => {
  let scrollTo: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    scrollTo = vi.fn(({ top }: ScrollToOptions) => {
      Object.defineProperty(window, 'scrollY', { value: top, configurable: true });
    });
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
      cb(0);
      return 0;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('starts new pages at the top and returns to the left position on Back', () => {
    leaveFeedAt(1840);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, left: 0, behavior: 'instant' });

    act(() => void navigation.go(-1));
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 1840, left: 0, behavior: 'instant' });
  });

  it("keeps the left page's position when the new page's scroll to the top reaches its listener", () => {
    // In a browser the scroll event of the new page's jump to the top, and the frame that saves it,
    // can come before React removes the left page's listener (its effects run after paint). Here the
    // event is dispatched at once, while that listener is still attached.
    scrollTo.mockImplementation(({ top }: ScrollToOptions) => {
      Object.defineProperty(window, 'scrollY', { value: top, configurable: true });
      fireEvent.scroll(window);
    });
    leaveFeedAt(1840);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, left: 0, behavior: 'instant' });

    act(() => void navigation.go(-1));
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 1840, left: 0, behavior: 'instant' });
  });
});

describe('ScrollRestoration across full loads (issue 28, defect 2)', () => {
  let scrollTo: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    sessionStorage.clear();
    scrollTo = vi.fn(({ top }: ScrollToOptions) => {
      Object.defineProperty(window, 'scrollY', { value: top, configurable: true });
    });
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
      cb(0);
      return 0;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  /** A new document and history entry: the module (and its positions) loaded afresh, the router at `path`. */
  async function freshLoad(path: string) {
    window.history.replaceState(null, '');
    vi.resetModules();
    const { ScrollRestoration: Fresh } = await import('./scroll-restoration.tsx');
    cleanup();
    render(
      <MemoryRouter initialEntries={[path]}>
        <Fresh />
      </MemoryRouter>,
    );
  }

  it('opens an address loaded afresh at the top, whatever the page loaded before it was scrolled to', async () => {
    await freshLoad('/feed');
    Object.defineProperty(window, 'scrollY', { value: 1840, configurable: true });
    fireEvent.scroll(window);
    fireEvent(window, new Event('pagehide'));

    await freshLoad('/profile/abc');
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, left: 0, behavior: 'instant' });
  });

  it('returns a reloaded first page to where it was', async () => {
    await freshLoad('/feed');
    Object.defineProperty(window, 'scrollY', { value: 1840, configurable: true });
    fireEvent.scroll(window);
    fireEvent(window, new Event('pagehide'));

    // A reload keeps the entry and its history.state; only the document is new.
    vi.resetModules();
    const { ScrollRestoration: Reloaded } = await import('./scroll-restoration.tsx');
    cleanup();
    render(
      <MemoryRouter initialEntries={['/feed']}>
        <Reloaded />
      </MemoryRouter>,
    );
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 1840, left: 0, behavior: 'instant' });
  });

  it('still returns Back to the first page of the load, and saves no position under the shared key', () => {
    leaveFeedAt(1840);
    Object.defineProperty(window, 'scrollY', { value: 300, configurable: true });
    fireEvent.scroll(window);
    fireEvent(window, new Event('pagehide'));
    const saved = JSON.parse(sessionStorage.getItem('scroll-positions')!) as [string, number][];
    expect(saved.map(([key]) => key)).not.toContain('default');
    expect(saved.map(([, y]) => y)).toEqual(expect.arrayContaining([1840, 300]));
    act(() => void navigation.go(-1));
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 1840, left: 0, behavior: 'instant' });
  });
});

describe('ScrollRestoration on a page that is still growing', () => {
  let pageHeight: number;
  let grow: () => void;
  beforeEach(() => {
    // The window scrolls no further than the page is tall, as a browser does.
    pageHeight = 5000;
    window.scrollTo = vi.fn(({ top }: ScrollToOptions) => {
      Object.defineProperty(window, 'scrollY', { value: Math.min(top!, pageHeight), configurable: true });
    }) as unknown as typeof window.scrollTo;
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
      cb(0);
      return 0;
    });
    const observers: (() => void)[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private callback: () => void) {}
        observe() {
          observers.push(this.callback);
        }
        disconnect() {
          observers.splice(observers.indexOf(this.callback), 1);
        }
      },
    );
    grow = () => {
      pageHeight += 1000;
      for (const callback of [...observers]) callback();
    };
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('keeps scrolling to the saved position as the page grows, then stops', () => {
    leaveFeedAt(6500);
    pageHeight = 1000; // Back on the feed, only its first cards are there yet.
    act(() => void navigation.go(-1));
    expect(window.scrollY).toBe(1000);

    grow();
    expect(window.scrollY).toBe(2000);
    grow(); // The rest of the list has rendered: 6500 is reachable.
    grow();
    grow();
    grow();
    grow();
    expect(window.scrollY).toBe(6500);
    const calls = vi.mocked(window.scrollTo).mock.calls.length;
    grow(); // Arrived: it no longer moves the page.
    expect(vi.mocked(window.scrollTo).mock.calls.length).toBe(calls);
  });

  it('waits seconds for a slow page, and stops moving it once the window has passed', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      leaveFeedAt(6500);
      pageHeight = 1000;
      act(() => void navigation.go(-1));
      vi.advanceTimersByTime(5_000); // A busy phone is still rendering the list.
      grow();
      expect(window.scrollY).toBe(2000);
      vi.advanceTimersByTime(RESTORE_WINDOW_MS);
      grow();
      expect(window.scrollY).toBe(2000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up as soon as the reader scrolls', () => {
    leaveFeedAt(6500);
    pageHeight = 1000;
    act(() => void navigation.go(-1));
    fireEvent.wheel(window);
    grow();
    expect(window.scrollY).toBe(1000);
  });
});
