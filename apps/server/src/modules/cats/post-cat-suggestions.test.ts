import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alreadyShowsMessage,
  CAT_MESSAGES,
  DEMO_DISABLED_MESSAGE,
  DEMO_USER_ID,
  type PostCatSuggestion,
  type PostCatSuggestionsResponse,
} from '@cats/contracts';
import { blocks, catSuggestions, cats, hiddenPosts, notifications, posts } from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-app.ts';
import { authHeader, createCat, createPost, createUser, type CreatedUser } from '../../../test/factories.ts';
import { NO_RATE_LIMITS } from '../../../test/hostile/support/world.ts';

type Who = { id: string } | null;

/** Issue 26, "Linking sightings": 'This is Luna' suggested by others, accepted or declined by the author. */
describe('cat suggestions', () => {
  let t: TestApp;
  let author: CreatedUser; // posts pictures
  let mariposa: CreatedUser; // suggests
  let carer: CreatedUser; // cares for the cats
  let fan: CreatedUser; // follows Luna

  async function api(user: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: user ? await authHeader(t.app, user.id) : {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  }
  const suggest = (who: Who, postId: string, catId: unknown) =>
    api(who, 'POST', `/api/posts/${postId}/cat-suggestions`, { catId });
  const listFor = async (who: Who, postId: string) => {
    const res = await api(who, 'GET', `/api/posts/${postId}/cat-suggestions`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as PostCatSuggestionsResponse).suggestions;
  };
  const answer = (who: Who, postId: string, id: string, verb: 'accept' | 'decline') =>
    api(who, 'POST', `/api/posts/${postId}/cat-suggestions/${id}/${verb}`);
  /** Everything a refusal must leave as it was: the suggestions, the posts' cats, the entries. */
  const snapshot = async () => ({
    suggestions: await t.db.select().from(catSuggestions).orderBy(catSuggestions.id),
    links: await t.db.select({ id: posts.id, catId: posts.catId }).from(posts).orderBy(posts.id),
    entries: (await t.db.select({ id: notifications.id }).from(notifications)).length,
  });
  const catOf = async (postId: string) =>
    (await t.db.select({ catId: posts.catId }).from(posts).where(eq(posts.id, postId)))[0]!.catId;
  const statusOf = async (id: string) =>
    (
      await t.db.select({ s: catSuggestions.status }).from(catSuggestions).where(eq(catSuggestions.id, id))
    )[0]!.s;

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    [author, mariposa, carer, fan] = [
      await createUser(t.db),
      await createUser(t.db, { username: `mariposa_${Date.now().toString(36)}` }),
      await createUser(t.db),
      await createUser(t.db),
    ];
  });
  afterAll(async () => t?.close());

  it("lets anyone suggest a cat for someone else's picture; its author sees it and accepts it, and the post is linked", async () => {
    const luna = await createCat(t.db, carer.id, { name: 'Luna' });
    await api(fan, 'PUT', `/api/cats/${luna.id}/follow`);
    const post = await createPost(t.db, author.id);

    const res = await suggest(mariposa, post.id, luna.id);
    expect(res.statusCode, res.body).toBe(201);
    const { message, suggestion } = res.json() as { message: string; suggestion: PostCatSuggestion };
    expect(message).toBe('Suggestion sent');
    expect(suggestion).toMatchObject({
      postId: post.id,
      cat: { _id: luna.id, name: 'Luna' },
      suggestedBy: { _id: mariposa.id, username: mariposa.username },
    });
    expect(JSON.stringify(suggestion)).not.toMatch(/latitude|longitude/);

    // The author sees it; nobody else may list a picture's suggestions.
    expect(await listFor(author, post.id)).toEqual([suggestion]);
    for (const who of [mariposa, fan, { id: DEMO_USER_ID }]) {
      const other = await api(who, 'GET', `/api/posts/${post.id}/cat-suggestions`);
      expect(other.statusCode).toBe(403);
      expect(other.json()).toEqual({ message: CAT_MESSAGES.suggestionsAuthorOnly });
    }

    const accepted = await answer(author, post.id, suggestion._id, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      message: 'Suggestion accepted',
      updatedPost: { _id: post.id, cat: { _id: luna.id, name: 'Luna' } },
    });
    expect(await catOf(post.id)).toBe(luna.id);
    expect(await statusOf(suggestion._id)).toBe('accepted');
    expect(await listFor(author, post.id)).toEqual([]);
    // Linked through the same path as PUT /api/posts/{postId}/cat: the cat's follower was told.
    const told = await t.db
      .select({ type: notifications.type })
      .from(notifications)
      .where(and(eq(notifications.recipientId, fan.id), eq(notifications.postId, post.id)));
    expect(told).toEqual([{ type: 'cat_sighting' }]);
    // Answered: a second answer is refused, and the suggester may suggest again.
    for (const verb of ['accept', 'decline'] as const) {
      const again = await answer(author, post.id, suggestion._id, verb);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ message: CAT_MESSAGES.suggestionAnswered });
    }
  });

  it('declines a suggestion and leaves the picture as it was', async () => {
    const milo = await createCat(t.db, carer.id, { name: 'Milo' });
    const post = await createPost(t.db, author.id);
    const made = (await suggest(mariposa, post.id, milo.id)).json() as { suggestion: PostCatSuggestion };
    const res = await answer(author, post.id, made.suggestion._id, 'decline');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Suggestion declined' });
    expect(await catOf(post.id)).toBeNull();
    expect(await statusOf(made.suggestion._id)).toBe('declined');
    expect(await listFor(author, post.id)).toEqual([]);
    const accept = await answer(author, post.id, made.suggestion._id, 'accept');
    expect(accept.statusCode).toBe(409);
    expect(await catOf(post.id)).toBeNull();
  });

  it('refuses bad suggestions with a clear message, and changes nothing', async () => {
    const luna = await createCat(t.db, carer.id, { name: 'Luna' });
    const post = await createPost(t.db, author.id);
    const linked = await createPost(t.db, author.id, { catId: luna.id });
    const hidden = await createPost(t.db, author.id);
    await t.db.insert(hiddenPosts).values({ userId: mariposa.id, postId: hidden.id });
    const trashed = await createPost(t.db, author.id, { deletedAt: new Date() });
    const blocker = await createUser(t.db);
    const blockedPost = await createPost(t.db, blocker.id);
    const blockedByMe = await createUser(t.db);
    const theirPost = await createPost(t.db, blockedByMe.id);
    await t.db.insert(blocks).values([
      { blockerId: blocker.id, blockedId: mariposa.id },
      { blockerId: mariposa.id, blockedId: blockedByMe.id },
    ]);
    const open = await suggest(mariposa, post.id, luna.id);
    expect(open.statusCode, open.body).toBe(201);
    const own = await createPost(t.db, mariposa.id);

    const before = await snapshot();
    const cases: [Who, string, unknown, number, string][] = [
      [mariposa, own.id, luna.id, 403, CAT_MESSAGES.suggestOwnPost],
      [mariposa, crypto.randomUUID(), luna.id, 404, CAT_MESSAGES.postNotFound],
      [mariposa, 'not-a-post', luna.id, 404, CAT_MESSAGES.postNotFound],
      [mariposa, hidden.id, luna.id, 404, CAT_MESSAGES.postNotFound],
      [mariposa, trashed.id, luna.id, 404, CAT_MESSAGES.postNotFound],
      [mariposa, blockedPost.id, luna.id, 404, CAT_MESSAGES.postNotFound],
      [mariposa, theirPost.id, luna.id, 404, CAT_MESSAGES.postNotFound],
      [fan, post.id, crypto.randomUUID(), 404, CAT_MESSAGES.notFound],
      [fan, post.id, 'nope', 404, CAT_MESSAGES.notFound],
      [fan, post.id, undefined, 400, ''],
      [fan, linked.id, luna.id, 409, alreadyShowsMessage('Luna')],
      [mariposa, post.id, luna.id, 409, CAT_MESSAGES.suggestionExists],
      [{ id: DEMO_USER_ID }, post.id, luna.id, 403, DEMO_DISABLED_MESSAGE],
      [null, post.id, luna.id, 401, ''],
    ];
    for (const [who, postId, catId, status, message] of cases) {
      const res = await suggest(who, postId, catId);
      expect(res.statusCode, `${postId} ${String(catId)}: ${res.body}`).toBe(status);
      const body = res.json() as { message: unknown };
      expect(typeof body.message).toBe('string');
      if (message) expect(body.message).toBe(message);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses answers by anyone but the author, and answers to unknown suggestions; nothing changes', async () => {
    const luna = await createCat(t.db, carer.id, { name: 'Luna' });
    const post = await createPost(t.db, author.id);
    const other = await createPost(t.db, author.id);
    const made = (await suggest(mariposa, post.id, luna.id)).json() as { suggestion: PostCatSuggestion };
    const id = made.suggestion._id;
    const before = await snapshot();
    const cases: [Who, string, string, number, string][] = [
      [mariposa, post.id, id, 403, CAT_MESSAGES.answerAuthorOnly],
      [fan, post.id, id, 403, CAT_MESSAGES.answerAuthorOnly],
      [{ id: DEMO_USER_ID }, post.id, id, 403, DEMO_DISABLED_MESSAGE],
      [null, post.id, id, 401, ''],
      [author, post.id, crypto.randomUUID(), 404, CAT_MESSAGES.suggestionNotFound],
      [author, post.id, 'nope', 404, CAT_MESSAGES.suggestionNotFound],
      // A suggestion of another picture is not one of this picture's.
      [author, other.id, id, 404, CAT_MESSAGES.suggestionNotFound],
      [author, crypto.randomUUID(), id, 404, CAT_MESSAGES.postNotFound],
    ];
    for (const verb of ['accept', 'decline'] as const) {
      for (const [who, postId, suggestionId, status, message] of cases) {
        const res = await answer(who, postId, suggestionId, verb);
        expect(res.statusCode, `${verb} ${res.body}`).toBe(status);
        if (message) expect(res.json()).toEqual({ message });
      }
    }
    expect(await snapshot()).toEqual(before);

    // A block made since leaves no trace: the suggestion is not listed, and cannot be answered.
    await t.db.insert(blocks).values({ blockerId: author.id, blockedId: mariposa.id });
    expect(await listFor(author, post.id)).toEqual([]);
    const res = await answer(author, post.id, id, 'accept');
    expect(res.statusCode).toBe(404);
    expect(await catOf(post.id)).toBeNull();
    await t.db.delete(blocks).where(eq(blocks.blockerId, author.id));
    expect((await listFor(author, post.id)).map((s) => s._id)).toEqual([id]);
  });

  it('keeps the link of a sighting near a household cat’s home from a suggester: their suggestion of it is refused as on any picture, and tells nobody', async () => {
    const home = { latitude: 51.5, longitude: -0.12 };
    const milo = await createCat(t.db, carer.id, {
      name: 'Milo',
      living: 'household',
      homeLatitude: home.latitude,
      homeLongitude: home.longitude,
    });
    const nearHome = await createPost(t.db, author.id, {
      catId: milo.id,
      latitude: home.latitude + 0.0005,
      longitude: home.longitude,
      showLocation: true,
    });
    const entries = async () =>
      (await t.db.select().from(notifications).where(eq(notifications.recipientId, author.id))).length;
    const before = await entries();
    // Not 'This picture already shows Milo': that would tell mariposa what the post does not. Only a
    // household cat's caretakers suggest it (decision 022): mariposa is refused as on any picture.
    const elsewhere = await createPost(t.db, author.id, {
      latitude: 40.4,
      longitude: -3.7,
      showLocation: true,
    });
    for (const postId of [nearHome.id, elsewhere.id, nearHome.id]) {
      const res = await suggest(mariposa, postId, milo.id);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toEqual({ message: CAT_MESSAGES.householdSuggestCaretakers });
    }
    expect(await entries()).toBe(before);
    expect(await listFor(author, nearHome.id)).toEqual([]);
    // Nor does listing or answering suggestions on it say more to others than on any other picture.
    const list = await api(mariposa, 'GET', `/api/posts/${nearHome.id}/cat-suggestions`);
    expect(list.statusCode).toBe(403);
    const link = await api(mariposa, 'PUT', `/api/posts/${nearHome.id}/cat`, { catId: null });
    expect(link.json()).toEqual({ message: CAT_MESSAGES.postNotYours });
    // The caretaker knows the link: to them it is refused as it is.
    const carerTries = await suggest(carer, nearHome.id, milo.id);
    expect(carerTries.statusCode).toBe(409);
    expect(carerTries.json()).toEqual({ message: alreadyShowsMessage('Milo') });
  });

  it('answers the open suggestions of the cat a picture is linked to by its author, and keeps the others open', async () => {
    const luna = await createCat(t.db, carer.id, { name: 'Luna' });
    const milo = await createCat(t.db, carer.id, { name: 'Milo' });
    const post = await createPost(t.db, author.id);
    const forLuna = ((await suggest(mariposa, post.id, luna.id)).json() as { suggestion: PostCatSuggestion })
      .suggestion;
    const forMilo = ((await suggest(fan, post.id, milo.id)).json() as { suggestion: PostCatSuggestion })
      .suggestion;
    const res = await api(author, 'PUT', `/api/posts/${post.id}/cat`, { catId: luna.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(await statusOf(forLuna._id)).toBe('accepted');
    expect(await statusOf(forMilo._id)).toBe('open');
    expect((await listFor(author, post.id)).map((s) => s.cat.name)).toEqual(['Milo']);
  });

  it('reads a suggested cat merged since as the cat it was merged into, and links that one', async () => {
    const luna = await createCat(t.db, carer.id, { name: 'Luna' });
    const twin = await createCat(t.db, carer.id, { name: 'Luna twin' });
    const post = await createPost(t.db, author.id);
    const made = ((await suggest(mariposa, post.id, twin.id)).json() as { suggestion: PostCatSuggestion })
      .suggestion;
    const merged = await api(carer, 'POST', `/api/cats/${luna.id}/merge`, { duplicateCatId: twin.id });
    expect(merged.statusCode, merged.body).toBe(200);
    expect((await listFor(author, post.id)).map((s) => s.cat)).toMatchObject([
      { _id: luna.id, name: 'Luna' },
    ]);
    const accepted = await answer(author, post.id, made._id, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await catOf(post.id)).toBe(luna.id);

    // A suggestion made with the merged cat's id names the survivor from the start.
    const next = await createPost(t.db, author.id);
    const res = await suggest(mariposa, next.id, twin.id);
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as { suggestion: PostCatSuggestion }).suggestion.cat._id).toBe(luna.id);
  });

  it('goes when its cat, post or suggester goes, by the foreign keys', async () => {
    const cat = await createCat(t.db, carer.id);
    const post = await createPost(t.db, author.id);
    const made = ((await suggest(mariposa, post.id, cat.id)).json() as { suggestion: PostCatSuggestion })
      .suggestion;
    await t.db.delete(cats).where(eq(cats.id, cat.id));
    expect(await t.db.select().from(catSuggestions).where(eq(catSuggestions.id, made._id))).toEqual([]);
    const res = await answer(author, post.id, made._id, 'accept');
    expect(res.statusCode).toBe(404);
    // The database holds the rules too: one open suggestion per picture and person, known statuses.
    const luna = await createCat(t.db, carer.id);
    await t.db.insert(catSuggestions).values({ postId: post.id, catId: luna.id, suggestedBy: fan.id });
    await expect(
      t.db.insert(catSuggestions).values({ postId: post.id, catId: luna.id, suggestedBy: fan.id }),
    ).rejects.toThrow();
    await expect(
      t.db
        .insert(catSuggestions)
        .values({ postId: post.id, catId: luna.id, suggestedBy: mariposa.id, status: 'maybe' }),
    ).rejects.toThrow();
    await expect(
      t.db
        .insert(catSuggestions)
        .values({ postId: post.id, catId: luna.id, suggestedBy: mariposa.id, status: 'accepted' }),
    ).rejects.toThrow();
  });
});
