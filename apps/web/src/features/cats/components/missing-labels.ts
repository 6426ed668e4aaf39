import type { MissingContactPreference } from '@cats/contracts';

/**
 * The contact preferences of a missing-cat alert (issue 26): how the caretaker asks to hear from
 * people, as the choice in 'Mark as missing' and as the sentence on the alert. Whole sentences, each
 * with the cat's name where it reads better, never pieces put together.
 */
export const CONTACT_CHOICES: Record<MissingContactPreference, string> = {
  report: "Tell me with 'I saw this cat' in the app.",
  photo: "Send me a photo with 'I saw this cat' if you can.",
  keep_distance: "Tell me with 'I saw this cat', and please do not try to catch the cat.",
};

export const contactSentence = (contact: MissingContactPreference, name: string): string => {
  switch (contact) {
    case 'report':
      return `If you see ${name}, please tell the caretakers with 'I saw this cat'.`;
    case 'photo':
      return `If you see ${name}, please take a photo and post it with 'I saw this cat'.`;
    case 'keep_distance':
      return `If you see ${name}, please do not try to catch them: tell the caretakers with 'I saw this cat' instead.`;
  }
};
