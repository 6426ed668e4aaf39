import { CAT_DESCRIPTION_MAX, CAT_FIELD_MESSAGES, CAT_PROFILE_NAME_MAX } from '@cats/contracts';
import { defineMessage, translate, type MessageDescriptor } from '../../i18n/i18n-store.ts';

/**
 * The forms' own words for a cat's name or description (the contracts' rules give them in English, as
 * the API writes them): each as a message of the current language.
 */
const PROBLEMS: Record<string, { message: MessageDescriptor; values?: Record<string, number> }> = {
  [CAT_FIELD_MESSAGES.nameRequired]: {
    message: defineMessage({ id: 'cats.field.nameRequired', defaultMessage: 'Name is required' }),
  },
  [CAT_FIELD_MESSAGES.nameTooLong]: {
    message: defineMessage({
      id: 'cats.field.nameTooLong',
      defaultMessage: 'Name is at most {max} characters',
    }),
    values: { max: CAT_PROFILE_NAME_MAX },
  },
  [CAT_FIELD_MESSAGES.nameInvalid]: {
    message: defineMessage({
      id: 'cats.field.nameInvalid',
      defaultMessage: 'Name contains invalid characters',
    }),
  },
  [CAT_FIELD_MESSAGES.descriptionTooLong]: {
    message: defineMessage({
      id: 'cats.field.descriptionTooLong',
      defaultMessage: 'Description is at most {max} characters',
    }),
    values: { max: CAT_DESCRIPTION_MAX },
  },
  [CAT_FIELD_MESSAGES.descriptionInvalid]: {
    message: defineMessage({
      id: 'cats.field.descriptionInvalid',
      defaultMessage: 'Description contains invalid characters',
    }),
  },
};

/** catNameProblem's or catDescriptionProblem's answer in the current language (null stays null). */
export function catFieldProblem(problem: string | null): string | null {
  if (problem === null) return null;
  const known = PROBLEMS[problem];
  return known ? translate(known.message, known.values) : problem;
}
