// Constants only (no zod): the web app's screens import them without the schema library. cats.ts
// re-exports them beside its schemas. Issue 26: cats as first-class things.
import { hasUnwantedControls } from './posts-constants.ts';

export const CAT_PROFILE_NAME_MAX = 40;
export const CAT_DESCRIPTION_MAX = 500;

/** What is wrong with a cat's name or description: the API's words (cats.ts) and the forms'. */
export const CAT_FIELD_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: `Name is at most ${CAT_PROFILE_NAME_MAX} characters`,
  nameInvalid: 'Name contains invalid characters',
  descriptionTooLong: `Description is at most ${CAT_DESCRIPTION_MAX} characters`,
  descriptionInvalid: 'Description contains invalid characters',
} as const;

/** The problem with a name as typed (it is trimmed first, as the API does), or null. */
export function catNameProblem(typed: string): string | null {
  const name = typed.trim();
  if (name.length === 0) return CAT_FIELD_MESSAGES.nameRequired;
  if (name.length > CAT_PROFILE_NAME_MAX) return CAT_FIELD_MESSAGES.nameTooLong;
  if (hasUnwantedControls(name)) return CAT_FIELD_MESSAGES.nameInvalid;
  return null;
}

/** The problem with a description as typed (trimmed first), or null. */
export function catDescriptionProblem(typed: string): string | null {
  const text = typed.trim();
  if (text.length > CAT_DESCRIPTION_MAX) return CAT_FIELD_MESSAGES.descriptionTooLong;
  if (hasUnwantedControls(text)) return CAT_FIELD_MESSAGES.descriptionInvalid;
  return null;
}

/** Coat colours and patterns, a fixed list (issue 26); a cat may have several (a ginger tabby). */
export const COAT_COLOURS = [
  'black',
  'white',
  'grey',
  'ginger',
  'cream',
  'brown',
  'tabby',
  'tortoiseshell',
  'calico',
  'bicolour',
  'pointed',
] as const;
export type CoatColour = (typeof COAT_COLOURS)[number];

/** Ear-tipped, neutered: known yes, known no, or not known. */
export const YES_NO_UNKNOWN = ['yes', 'no', 'unknown'] as const;
export type YesNoUnknown = (typeof YES_NO_UNKNOWN)[number];

/** Whether the cat lives with someone ('household'), is a community cat, or nobody knows. */
export const CAT_LIVING = ['household', 'community', 'unknown'] as const;
export type CatLiving = (typeof CAT_LIVING)[number];

/**
 * A household cat's sightings this close to its caretakers' home point are always kept from strangers.
 * The rule itself reads ~500 m cells, never this distance (the home's cell and its 8 neighbours hold
 * every point this close; docs/decisions/022-near-home-on-cells.md).
 */
export const CAT_HOME_PRIVACY_METRES = 200;

/** 'Which cat is this?' on Spot: cats seen this close to the photo's spot, this recently, at most this many. */
export const CAT_SUGGESTION_METRES = 300;
export const CAT_SUGGESTION_DAYS = 90;
export const CAT_SUGGESTION_LIMIT = 5;

export const CATS_PAGE_SIZE = 20;
export const CAT_SIGHTINGS_PAGE_SIZE = 20;
/** The most sightings a cat's map shows (the newest); the timeline has them all. */
export const CAT_MAP_POINTS_MAX = 500;

/** A merge of two cats' profiles can be undone for this many days. */
export const CAT_MERGE_UNDO_DAYS = 30;
/** A page of a cat's history: this many merges, newest first. */
export const CAT_HISTORY_PAGE_SIZE = 20;

/** Refusals of the cats routes: one sentence each, shown as they are. */
export const CAT_MESSAGES = {
  notFound: 'Cat not found',
  notCaretaker: 'Only the caretakers of this cat can change it',
  coverNotSighting: 'The cover photo must be one of this cat’s sightings',
  postNotYours: 'Only the author of a picture can say which cat it shows',
  // Issue 46: a household cat's sightings near home are decided by its caretakers alone.
  householdLinkCaretakers:
    'This cat lives with someone: only its caretakers link pictures to it. They can suggest it on your picture with ‘This is…’',
  postNotFound: 'Post not found',
  caretakerUnknown: 'User not found',
  caretakerDemo: 'The demo account cannot care for a cat',
  lastCaretaker: 'A cat keeps at least one caretaker',
  nearInvalid: 'near must be latitude,longitude',
  // 'This is Luna': suggestions on others' pictures.
  // Issue 46: only a household cat's caretakers say which pictures show it, suggestions included.
  householdSuggestCaretakers: 'This cat lives with someone: only its caretakers say which pictures show it',
  suggestOwnPost: 'This is your own picture: say which cat it shows with ‘Which cat is this?’',
  suggestionExists: 'You already suggested a cat for this picture; its author has not answered yet',
  suggestionsAuthorOnly: 'Only the author of a picture sees the suggestions for it',
  answerAuthorOnly: 'Only the author of a picture can answer a suggestion for it',
  suggestionNotFound: 'Suggestion not found',
  suggestionAnswered: 'This suggestion was already answered',
  // Merges of duplicate profiles.
  mergeNotCaretaker: 'Only someone who cares for both cats can merge them',
  mergeSameCat: 'A cat cannot be merged into itself',
  duplicateMerged: 'That cat was already merged into another cat',
  mergeDuplicateMissing:
    'That cat is marked missing. Mark it as found, or let its alert end, before merging it into another profile',
  survivorMerged: 'This cat was merged into another cat: merge into that one instead',
  mergeNotFound: 'Merge not found',
  undoNotCaretaker: 'Only the caretakers of this cat can undo a merge',
  undoAlreadyUndone: 'This merge was already undone',
  undoExpired: `A merge can be undone for ${CAT_MERGE_UNDO_DAYS} days; this one is older`,
  undoLaterMerge: 'This cat was merged into another cat since: undo that merge first',
} as const;

/** 'This picture already shows Luna.': a suggestion of the cat the post is already linked to. */
export const alreadyShowsMessage = (catName: string) => `This picture already shows ${catName}`;
