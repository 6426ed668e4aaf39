import { Link } from 'react-router';
import { buttonClass } from '../../../components/button.tsx';
import { SettingsCard } from './settings-card.tsx';

/** Where deleted pictures wait 30 days before they are gone for good (issue 24). */
export function TrashLink() {
  return (
    <SettingsCard
      title="Trash"
      description="Pictures you delete stay in the trash for 30 days, and you can restore them from there."
    >
      {() => (
        <Link to="/profile/trash" className={buttonClass('secondary')}>
          Open trash
        </Link>
      )}
    </SettingsCard>
  );
}
