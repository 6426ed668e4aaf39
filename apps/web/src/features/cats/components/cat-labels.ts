import type { CatLiving, CoatColour, YesNoUnknown } from '@cats/contracts';

/**
 * The names of the fixed choices (issue 26), for the cat's details and its edit form, which show the
 * same words: one place for them, each a whole label (they move to translation catalogues later).
 */
export const COAT_COLOUR_LABELS: Record<CoatColour, string> = {
  black: 'Black',
  white: 'White',
  grey: 'Grey',
  ginger: 'Ginger',
  cream: 'Cream',
  brown: 'Brown',
  tabby: 'Tabby',
  tortoiseshell: 'Tortoiseshell',
  calico: 'Calico',
  bicolour: 'Bicolour',
  pointed: 'Pointed',
};

export const YES_NO_UNKNOWN_LABELS: Record<YesNoUnknown, string> = {
  yes: 'Yes',
  no: 'No',
  unknown: 'Not known',
};

export const LIVING_LABELS: Record<CatLiving, string> = {
  household: 'Lives with someone',
  community: 'Community cat',
  unknown: 'Not known',
};
