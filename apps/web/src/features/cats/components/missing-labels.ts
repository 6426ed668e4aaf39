import type { MissingContactPreference } from '@cats/contracts';
import { defineMessage, type MessageDescriptor } from '../../../i18n/i18n-store.ts';

/**
 * The contact preferences of a missing-cat alert (issue 26): how the caretaker asks to hear from
 * people, as the choice in 'Mark as missing' and as the sentence on the alert. Whole sentences, each
 * with the cat's name ({name}) where it reads better, never pieces put together.
 */
export const CONTACT_CHOICES: Record<MissingContactPreference, MessageDescriptor> = {
  report: defineMessage({
    id: 'missing.contact.choice.report',
    defaultMessage: "Tell me with 'I saw this cat' in the app.",
  }),
  photo: defineMessage({
    id: 'missing.contact.choice.photo',
    defaultMessage: "Send me a photo with 'I saw this cat' if you can.",
  }),
  keep_distance: defineMessage({
    id: 'missing.contact.choice.keepDistance',
    defaultMessage: "Tell me with 'I saw this cat', and please do not try to catch the cat.",
  }),
};

/** The sentence on the alert, shown with `t(CONTACT_SENTENCES[contact], { name })`. */
export const CONTACT_SENTENCES: Record<MissingContactPreference, MessageDescriptor> = {
  report: defineMessage({
    id: 'missing.contact.sentence.report',
    defaultMessage: "If you see {name}, please tell the caretakers with 'I saw this cat'.",
  }),
  photo: defineMessage({
    id: 'missing.contact.sentence.photo',
    defaultMessage: "If you see {name}, please take a photo and post it with 'I saw this cat'.",
  }),
  keep_distance: defineMessage({
    id: 'missing.contact.sentence.keepDistance',
    defaultMessage:
      "If you see {name}, please do not try to catch them: tell the caretakers with 'I saw this cat' instead.",
  }),
};
