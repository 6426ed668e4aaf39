import type { CatListItem } from '@cats/contracts';
import { defineMessage } from '../../i18n/i18n-store.ts';

/** What a list says of a cat for deciding whether the viewer may link a picture to it, or suggest it. */
export type LinkingFacts = Pick<CatListItem, 'living' | 'viewerIsCaretaker' | 'missing'>;

/**
 * Only a household cat's caretakers link a picture to it or suggest it (decision 022), and while it is
 * missing anyone shown its alert: the server refuses anyone else, so the web does not offer it to them
 * and leave them at a refusal.
 */
export const mayLinkTo = (cat: LinkingFacts): boolean =>
  cat.living !== 'household' || cat.viewerIsCaretaker || cat.missing;

/**
 * A missing household cat linked by someone who does not care for it: the link is kept from everyone but
 * its caretakers and the picture's author (decision 022), and the form says so.
 */
export const linkSeenByCaretakersOnly = (cat: LinkingFacts): boolean =>
  cat.living === 'household' && !cat.viewerIsCaretaker;

/** Said beside a household cat the viewer may not choose. */
export const householdOnlyCaretakers = defineMessage({
  id: 'cats.householdOnlyCaretakers',
  defaultMessage: 'Lives with someone: only its caretakers say which pictures show it',
});
