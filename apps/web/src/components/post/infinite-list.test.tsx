import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { FIRST_RENDER_ITEMS, InfiniteList } from './infinite-list.tsx';

/** A controllable IntersectionObserver: tests say which observed element became visible. */
class FakeObserver {
  static instances: FakeObserver[] = [];
  observed: Element[] = [];
  disconnected = false;
  constructor(public callback: IntersectionObserverCallback) {
    FakeObserver.instances.push(this);
  }
  observe(el: Element) {
    this.observed.push(el);
  }
  disconnect() {
    this.disconnected = true;
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
  show() {
    const entries = this.observed.map(
      (target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry,
    );
    this.callback(entries, this as unknown as IntersectionObserver);
  }
}
const live = () => FakeObserver.instances.filter((o) => !o.disconnected);

beforeEach(() => {
  FakeObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const items = (n: number) => Array.from({ length: n }, (_, i) => `cat-${i}`);
const list = (props: {
  n: number;
  hasNextPage: boolean;
  isFetchingNextPage?: boolean;
  fetchNextPage: () => void;
}) => (
  <InfiniteList
    items={items(props.n)}
    getKey={(s) => s}
    renderItem={(s) => <span>{s}</span>}
    hasNextPage={props.hasNextPage}
    isFetchingNextPage={props.isFetchingNextPage ?? false}
    fetchNextPage={props.fetchNextPage}
    endMessage="That was every cat"
  />
);

describe('InfiniteList', () => {
  it('loads the next page once when the second-to-last item becomes visible', () => {
    const fetchNextPage = vi.fn();
    const { getByText } = render(list({ n: 5, hasNextPage: true, fetchNextPage }));
    expect(live()).toHaveLength(1);
    expect(live()[0]!.observed).toEqual([getByText('cat-3').closest('li')]);
    live()[0]!.show();
    live()[0]!.show();
    expect(fetchNextPage).toHaveBeenCalledTimes(1);
  });

  it('follows the new second-to-last item when a page arrives, and pauses while fetching', () => {
    const fetchNextPage = vi.fn();
    const { rerender, getByText } = render(list({ n: 5, hasNextPage: true, fetchNextPage }));
    rerender(list({ n: 5, hasNextPage: true, isFetchingNextPage: true, fetchNextPage }));
    expect(live()).toHaveLength(0);
    rerender(list({ n: 10, hasNextPage: true, fetchNextPage }));
    expect(live()).toHaveLength(1);
    expect(live()[0]!.observed).toEqual([getByText('cat-8').closest('li')]);
  });

  it('stops observing on the last page and says so', () => {
    const { getByText } = render(list({ n: 3, hasNextPage: false, fetchNextPage: vi.fn() }));
    expect(live()).toHaveLength(0);
    getByText('That was every cat');
  });

  it('observes the only item of a one-item page', () => {
    const { getByText } = render(list({ n: 1, hasNextPage: true, fetchNextPage: vi.fn() }));
    expect(live()[0]!.observed).toEqual([getByText('cat-0').closest('li')]);
  });

  it('renders the first items alone, then the whole page, without asking for the next page early', () => {
    const calls: number[] = [];
    const fetchNextPage = vi.fn();
    const { getAllByRole } = render(
      <InfiniteList
        items={items(20)}
        getKey={(s) => s}
        renderItem={(s, index) => {
          calls.push(index);
          return <span>{s}</span>;
        }}
        hasNextPage
        isFetchingNextPage={false}
        fetchNextPage={fetchNextPage}
      />,
    );
    // One render pass per run from item 0.
    const passes = calls.reduce<number[][]>((all, index) => {
      if (index === 0) all.push([]);
      all.at(-1)!.push(index);
      return all;
    }, []);
    // render() waits for React's background work: both passes have happened.
    expect(passes.map((pass) => pass.length)).toEqual([FIRST_RENDER_ITEMS, 20]);
    expect(getAllByRole('listitem')).toHaveLength(20);
    // Only the complete list's second-to-last item was ever observed.
    expect(FakeObserver.instances.flatMap((o) => o.observed)).toEqual([getAllByRole('listitem')[18]]);
    expect(fetchNextPage).not.toHaveBeenCalled();
  });
});
