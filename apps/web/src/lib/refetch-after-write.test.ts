import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { refetchAfterWrite } from './refetch-after-write.ts';

/**
 * A list whose first request the server answers before a write but whose answer arrives after it:
 * the profile's posts asked for as the owner taps Undo on a deleted picture.
 */
function heldList() {
  let serverPosts = ['older'];
  const answers: (() => void)[] = [];
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const observer = new QueryObserver(queryClient, {
    queryKey: ['profile-posts', 'me'],
    // The server reads its answer at once; the response is held until the test lets it go.
    queryFn: () => {
      const snapshot = [...serverPosts];
      return new Promise<string[]>((resolve) => answers.push(() => resolve(snapshot)));
    },
  });
  const unsubscribe = observer.subscribe(() => undefined);
  return {
    queryClient,
    observer,
    unsubscribe,
    write: () => {
      serverPosts = ['restored', ...serverPosts];
    },
    requests: () => answers.length,
    /** Lets every held response arrive, in the order they were asked. */
    release: () => {
      for (const answer of answers.splice(0)) answer();
    },
  };
}

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const done of cleanup.splice(0)) done();
});

/** Lets held responses arrive until `done` (the refetch, the invalidation) has finished. */
async function settle(list: ReturnType<typeof heldList>, done: Promise<unknown>) {
  let finished = false;
  void done.then(() => (finished = true));
  for (let i = 0; i < 20 && !finished; i++) {
    list.release();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  await done;
}

describe('refetchAfterWrite', () => {
  it('asks again for a list whose first request left before the write', async () => {
    const list = heldList();
    cleanup.push(list.unsubscribe);
    expect(list.requests()).toBe(1);
    list.write();
    await settle(list, refetchAfterWrite(list.queryClient));
    expect(list.requests()).toBe(0);
    expect(list.observer.getCurrentResult().data).toEqual(['restored', 'older']);
  });

  it('is needed: invalidating alone keeps the answer from before the write', async () => {
    const list = heldList();
    cleanup.push(list.unsubscribe);
    list.write();
    await settle(list, list.queryClient.invalidateQueries());
    // TanStack Query v5 reuses the first fetch (TanStack/query#8530): if this ever changes, the
    // helper's cancel is no longer needed, and this test says so.
    expect(list.observer.getCurrentResult().data).toEqual(['older']);
  });

  it('refetches a list that already has data, and leaves other keys alone', async () => {
    const list = heldList();
    cleanup.push(list.unsubscribe);
    await settle(list, list.queryClient.fetchQuery({ queryKey: ['profile-posts', 'me'] }));
    list.queryClient.setQueryData(['explore'], 'map');
    list.write();
    await settle(list, refetchAfterWrite(list.queryClient, { queryKey: ['profile-posts'] }));
    expect(list.observer.getCurrentResult().data).toEqual(['restored', 'older']);
    expect(list.queryClient.getQueryState(['explore'])?.isInvalidated).toBe(false);
  });
});
