import { Message } from '../../i18n/message.tsx';
import './missing-tag.css';

/**
 * Beside a cat's name (the cats page, 'Which cat is this?' in a post's menu and on Spot, the cat a post
 * card or a post's page names): an alert the viewer may see is open (issue 26). Whoever meets a missing
 * cat should know it at once, before they open its page. A word, not only a colour. It brings the space
 * before it, so that screen readers say 'Luna Missing', not 'LunaMissing', wherever it follows a name.
 */
export function MissingTag() {
  return (
    <>
      {' '}
      <span className="missing-tag">
        <Message id="cats.missingTag" defaultMessage="Missing" />
      </span>
    </>
  );
}
