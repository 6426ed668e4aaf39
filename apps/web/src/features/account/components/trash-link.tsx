import { Link } from 'react-router';
import { buttonClass } from '../../../components/button.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { SettingsCard } from './settings-card.tsx';

/** Where deleted pictures wait 30 days before they are gone for good (issue 24). */
export function TrashLink() {
  const t = useTranslate();
  return (
    <SettingsCard
      title={t({ id: 'settings.trash.title', defaultMessage: 'Trash' })}
      description={t({
        id: 'settings.trash.description',
        defaultMessage:
          'Pictures you delete stay in the trash for 30 days, and you can restore them from there.',
      })}
    >
      {() => (
        <Link to="/profile/trash" className={buttonClass('secondary')}>
          <Message id="settings.trash.open" defaultMessage="Open trash" />
        </Link>
      )}
    </SettingsCard>
  );
}
