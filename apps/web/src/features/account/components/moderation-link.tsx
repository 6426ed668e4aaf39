import { Link } from 'react-router';
import { buttonClass } from '../../../components/button.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { SettingsCard } from './settings-card.tsx';

/** Where the statements of reasons and the viewer's own reports live (issue 27, the author's side). */
export function ModerationLink() {
  const t = useTranslate();
  return (
    <SettingsCard
      title={t({
        id: 'settings.moderationLink.title',
        defaultMessage: 'Moderation decisions and your reports',
      })}
      description={t({
        id: 'settings.moderationLink.description',
        defaultMessage:
          'What moderators decided about your content, why, and how to appeal; and what came of the things you reported.',
      })}
    >
      {() => (
        <Link to="/settings/moderation" className={buttonClass('secondary')}>
          <Message id="settings.moderationLink.open" defaultMessage="Open moderation decisions" />
        </Link>
      )}
    </SettingsCard>
  );
}
