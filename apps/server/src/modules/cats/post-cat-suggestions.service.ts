import {
  alreadyShowsMessage,
  CAT_MESSAGES,
  type AcceptCatSuggestionResponse,
  type PostCatSuggestion,
  type PostCatSuggestionsResponse,
} from '@cats/contracts';
import { conflict, forbidden, notFound } from '../../lib/http-errors.ts';
import { violatesConstraint } from '../../lib/db-errors.ts';
import { toUserSummary } from '../visibility/user-summary.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import * as suggestions from './post-cat-suggestions.repository.ts';
import { catSummary, linkPostToCat, mayLinkHouseholdCat, requireCat, type CatsDeps } from './cats.service.ts';
import * as cats from './cats.repository.ts';

export const SUGGESTION_SENT_MESSAGE = 'Suggestion sent';
export const SUGGESTION_ACCEPTED_MESSAGE = 'Suggestion accepted';
export const SUGGESTION_DECLINED_MESSAGE = 'Suggestion declined';
/** cat_suggestions_open_idx: a second open suggestion by one person on one picture (a race). */
const ONE_OPEN_SUGGESTION = 'cat_suggestions_open_idx';

/**
 * 'This is Luna' (issue 26, "Linking sightings"): anyone signed in but the demo account suggests which
 * cat someone else's picture shows; the picture's author sees the open suggestions and accepts one (the
 * post is linked as PUT /api/posts/{postId}/cat links it, followers told as for any link) or declines
 * it. Who may see the post decides who may suggest: unknown, hidden and blocked alike are 404. A
 * household cat is suggested by its caretakers only (they alone may link a picture to it), and while
 * it is missing by anyone shown its alert.
 */
export async function suggestCat(
  deps: CatsDeps,
  viewer: AuthContext,
  postId: string,
  catId: string,
): Promise<PostCatSuggestion> {
  const made = await deps.db
    .transaction(async (tx) => {
      const post = await cats.postSeenBy(tx, postId, viewer.userId);
      if (!post) throw notFound(CAT_MESSAGES.postNotFound);
      if (post.userId === viewer.userId) throw forbidden(CAT_MESSAGES.suggestOwnPost);
      const cat = await requireCat(tx, catId, 'share');
      // Only its caretakers, and while it is missing anyone shown the alert, may link a picture to a
      // household cat (decision 022), so a suggestion by anyone else could never be accepted: refused
      // at once rather than left as a dead end.
      if (cat.living === 'household' && !(await mayLinkHouseholdCat(tx, cat.id, viewer.userId))) {
        throw forbidden(CAT_MESSAGES.householdSuggestCaretakers);
      }
      // Saying 'it already shows Luna' is fine where the post names its cat to this viewer; where it
      // does not (near a household cat's home) the suggestion is kept like any other, and is moot.
      if (post.catId === cat.id && !(await suggestions.postLinkKeptFrom(tx, post.id, viewer.userId))) {
        throw conflict(alreadyShowsMessage(cat.name));
      }
      if (await suggestions.hasOpenSuggestion(tx, post.id, viewer.userId))
        throw conflict(CAT_MESSAGES.suggestionExists);
      const row = await suggestions.insertSuggestion(tx, {
        postId: post.id,
        catId: cat.id,
        suggestedBy: viewer.userId,
      });
      return { ...row, postId: post.id, catId: cat.id };
    })
    .catch((err: unknown) => {
      if (violatesConstraint(err, ONE_OPEN_SUGGESTION)) throw conflict(CAT_MESSAGES.suggestionExists);
      throw err;
    });
  const [cat, me] = await Promise.all([
    catSummary(deps, viewer, made.catId),
    cats.userVisibleTo(deps.db, viewer.userId, viewer.userId),
  ]);
  if (!cat || !me) throw notFound(CAT_MESSAGES.notFound);
  return {
    _id: made.id,
    postId: made.postId,
    cat,
    suggestedBy: toUserSummary(viewer, me, deps.publicBase),
    createdAt: made.createdAt.toISOString(),
  };
}

/** The post for its author: 404 when they may not see it, 403 for anyone else who may. */
async function requireOwnPost(deps: CatsDeps, viewer: AuthContext, postId: string, notAuthor: string) {
  const post = await cats.postSeenBy(deps.db, postId, viewer.userId);
  if (!post) throw notFound(CAT_MESSAGES.postNotFound);
  if (post.userId !== viewer.userId) throw forbidden(notAuthor);
  return post;
}

/**
 * The open suggestions on the author's own picture, oldest first, each naming the cat it is now (a
 * suggested cat merged since is its survivor); those of the cat the picture already shows are moot and
 * left out.
 */
export async function listSuggestions(
  deps: CatsDeps,
  viewer: AuthContext,
  postId: string,
): Promise<PostCatSuggestionsResponse> {
  const post = await requireOwnPost(deps, viewer, postId, CAT_MESSAGES.suggestionsAuthorOnly);
  const rows = await suggestions.openSuggestionsFor(deps.db, post.id, viewer.userId);
  const out: PostCatSuggestion[] = [];
  for (const row of rows) {
    const live = await cats.findLiveCat(deps.db, row.catId);
    if (!live || live.id === post.catId) continue;
    const cat = await catSummary(deps, viewer, live.id);
    if (!cat) continue;
    out.push({
      _id: row.id,
      postId: row.postId,
      cat,
      suggestedBy: toUserSummary(viewer, row.suggester, deps.publicBase),
      createdAt: row.createdAt.toISOString(),
    });
  }
  return { suggestions: out };
}

/** The open suggestion being answered, read and locked in the answer's transaction. */
async function openSuggestion(
  tx: Parameters<typeof suggestions.findSuggestion>[0],
  viewer: AuthContext,
  postId: string,
  suggestionId: string,
) {
  const suggestion = await suggestions.findSuggestion(tx, suggestionId, postId, viewer.userId);
  if (!suggestion) throw notFound(CAT_MESSAGES.suggestionNotFound);
  if (suggestion.status !== 'open') throw conflict(CAT_MESSAGES.suggestionAnswered);
  return suggestion;
}

/**
 * The author accepts: the picture is linked to the suggested cat by linkPostToCat, the one path every
 * link takes (which answers this suggestion, and any other of the same cat, as accepted).
 */
export async function acceptSuggestion(
  deps: CatsDeps,
  viewer: AuthContext,
  postId: string,
  suggestionId: string,
): Promise<AcceptCatSuggestionResponse> {
  const answer = await linkPostToCat(
    deps,
    viewer,
    postId,
    async (tx, post) => {
      const suggestion = await openSuggestion(tx, viewer, post.id, suggestionId);
      return { catId: suggestion.catId, suggestedBy: suggestion.suggester.id };
    },
    CAT_MESSAGES.answerAuthorOnly,
  );
  return { message: SUGGESTION_ACCEPTED_MESSAGE, ...answer };
}

/** The author declines: the suggestion is answered; the picture stays as it is. */
export async function declineSuggestion(
  deps: CatsDeps,
  viewer: AuthContext,
  postId: string,
  suggestionId: string,
): Promise<{ message: string }> {
  await deps.db.transaction(async (tx) => {
    const post = await cats.postSeenBy(tx, postId, viewer.userId);
    if (!post) throw notFound(CAT_MESSAGES.postNotFound);
    if (post.userId !== viewer.userId) throw forbidden(CAT_MESSAGES.answerAuthorOnly);
    const suggestion = await openSuggestion(tx, viewer, post.id, suggestionId);
    await suggestions.answerSuggestions(tx, [suggestion.id], 'declined');
  });
  return { message: SUGGESTION_DECLINED_MESSAGE };
}
