import { Message } from '../../i18n/message.tsx';

/**
 * Beside a cat's name in a list of cats (the cats page, 'Which cat is this?'): an alert the viewer may
 * see is open (issue 26). Whoever spots a missing cat should know it before they open its page. A word,
 * not only a colour.
 */
export function MissingTag() {
  return (
    <span className="missing-tag">
      <Message id="cats.missingTag" defaultMessage="Missing" />
    </span>
  );
}
