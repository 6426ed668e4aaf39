import type { CatLiving, CoatColour, YesNoUnknown } from '@cats/contracts';
import { defineMessage, type MessageDescriptor } from '../../../i18n/i18n-store.ts';

/**
 * The names of the fixed choices (issue 26), for the cat's details and its edit form, which show the
 * same words: one place for them, each a whole label, shown with `t(label)`.
 */
export const COAT_COLOUR_LABELS: Record<CoatColour, MessageDescriptor> = {
  black: defineMessage({ id: 'cats.coat.black', defaultMessage: 'Black' }),
  white: defineMessage({ id: 'cats.coat.white', defaultMessage: 'White' }),
  grey: defineMessage({ id: 'cats.coat.grey', defaultMessage: 'Grey' }),
  ginger: defineMessage({ id: 'cats.coat.ginger', defaultMessage: 'Ginger' }),
  cream: defineMessage({ id: 'cats.coat.cream', defaultMessage: 'Cream' }),
  brown: defineMessage({ id: 'cats.coat.brown', defaultMessage: 'Brown' }),
  tabby: defineMessage({ id: 'cats.coat.tabby', defaultMessage: 'Tabby' }),
  tortoiseshell: defineMessage({ id: 'cats.coat.tortoiseshell', defaultMessage: 'Tortoiseshell' }),
  calico: defineMessage({ id: 'cats.coat.calico', defaultMessage: 'Calico' }),
  bicolour: defineMessage({ id: 'cats.coat.bicolour', defaultMessage: 'Bicolour' }),
  pointed: defineMessage({ id: 'cats.coat.pointed', defaultMessage: 'Pointed' }),
};

export const YES_NO_UNKNOWN_LABELS: Record<YesNoUnknown, MessageDescriptor> = {
  yes: defineMessage({ id: 'cats.answer.yes', defaultMessage: 'Yes' }),
  no: defineMessage({ id: 'cats.answer.no', defaultMessage: 'No' }),
  unknown: defineMessage({ id: 'cats.answer.unknown', defaultMessage: 'Not known' }),
};

export const LIVING_LABELS: Record<CatLiving, MessageDescriptor> = {
  household: defineMessage({ id: 'cats.living.household', defaultMessage: 'Lives with someone' }),
  community: defineMessage({ id: 'cats.living.community', defaultMessage: 'Community cat' }),
  unknown: defineMessage({ id: 'cats.answer.unknown', defaultMessage: 'Not known' }),
};
