import { Link } from 'react-router';
import { buttonClass } from '../../../components/button.tsx';
import { SettingsCard } from './settings-card.tsx';

/** Where the statements of reasons and the viewer's own reports live (issue 27, the author's side). */
export function ModerationLink() {
  return (
    <SettingsCard
      title="Moderation decisions and your reports"
      description="What moderators decided about your content, why, and how to appeal; and what came of the things you reported."
    >
      {() => (
        <Link to="/settings/moderation" className={buttonClass('secondary')}>
          Open moderation decisions
        </Link>
      )}
    </SettingsCard>
  );
}
