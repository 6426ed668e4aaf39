// The check of a new cat's name typed on Spot, answered in the reader's language.
import { CAT_FIELD_MESSAGES, CAT_PROFILE_NAME_MAX, catNameProblem } from '@cats/contracts';
import { translate } from '../../../i18n/i18n-store.ts';

/**
 * The problem with a new cat's name as typed, in the reader's language. catNameProblem (the API's own
 * check) answers with the contracts' English sentences; each is one of ours here.
 */
export function newCatNameProblem(typed: string): string | null {
  switch (catNameProblem(typed)) {
    case null:
      return null;
    case CAT_FIELD_MESSAGES.nameRequired:
      return translate({ id: 'spot.newCat.nameRequired', defaultMessage: 'Name is required' });
    case CAT_FIELD_MESSAGES.nameTooLong:
      return translate(
        { id: 'spot.newCat.nameTooLong', defaultMessage: 'Name is at most {max} characters' },
        { max: CAT_PROFILE_NAME_MAX },
      );
    default:
      return translate({ id: 'spot.newCat.nameInvalid', defaultMessage: 'Name contains invalid characters' });
  }
}
