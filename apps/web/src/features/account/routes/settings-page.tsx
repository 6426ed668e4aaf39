import { useState } from 'react';
import { Avatar } from '../../../components/avatar.tsx';
import { InfoIcon } from '../../../components/icons.tsx';
import { DemoDisabledModal } from '../../../components/message-modal.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useAuth } from '../../../lib/auth-store.ts';
import { useMyProfile } from '../../../lib/my-profile.ts';
import { BlockedUsers } from '../components/blocked-users.tsx';
import { ChangeEmailForm } from '../components/change-email-form.tsx';
import { ChangePasswordForm } from '../components/change-password-form.tsx';
import { ChangeUsernameForm } from '../components/change-username-form.tsx';
import { DataExport } from '../components/data-export.tsx';
import { DeleteAccount } from '../components/delete-account.tsx';
import { HiddenPosts } from '../components/hidden-posts.tsx';
import { LocationPrivacy } from '../components/location-privacy.tsx';
import { HomeArea } from '../components/home-area.tsx';
import { NotificationPreferences } from '../components/notification-preferences.tsx';
import { PushNotifications } from '../components/push-notifications.tsx';
import { AltTextReminder } from '../components/alt-text-reminder.tsx';
import { Appearance } from '../components/appearance.tsx';
import { LanguageChoice } from '../components/language-choice.tsx';
import { TrashLink } from '../components/trash-link.tsx';
import { ModerationLink } from '../components/moderation-link.tsx';
import { LoadErrorText } from '../components/settings-card.tsx';
import './settings-page.css';

/**
 * /profile/settings (spec section 2). The spec's 'Not yet functional' account changes work here (issue 3,
 * point 8); the demo account sees them disabled.
 */
export default function SettingsPage() {
  const profile = useMyProfile();
  const { userId } = useAuth();
  const t = useTranslate();
  const [demoRefused, setDemoRefused] = useState(false);
  const showDemoModal = () => setDemoRefused(true);

  return (
    <div className="page settings">
      <title>{t({ id: 'settings.page.title', defaultMessage: 'Settings · Neighbourhood Cats' })}</title>
      <h1>
        <Message id="settings.page.heading" defaultMessage="Settings" />
      </h1>
      {profile.isPending ? (
        <p className="loading-text">
          <Message id="settings.loading" defaultMessage="Loading..." />
        </p>
      ) : profile.isError ? (
        <LoadErrorText error={profile.error} />
      ) : (
        <>
          <div className="settings__who card">
            <Avatar src={profile.data.avatarUrl ?? profile.data.profilePicUrl} size={56} />
            <div>
              <p className="settings__name">{profile.data.username}</p>
              <p className="settings__email">{profile.data.email}</p>
            </div>
          </div>
          {profile.data.isDemo && (
            <p className="notice notice--info settings__demo">
              <InfoIcon size={20} />
              <span>
                <Message id="settings.demoNotice" defaultMessage="Features disabled for demo user" />
              </span>
            </p>
          )}
          <ChangeUsernameForm
            currentUsername={profile.data.username}
            disabled={profile.data.isDemo}
            onDemoRefused={showDemoModal}
          />
          <ChangeEmailForm
            currentEmail={profile.data.email}
            disabled={profile.data.isDemo}
            onDemoRefused={showDemoModal}
          />
          <ChangePasswordForm
            email={profile.data.email}
            disabled={profile.data.isDemo}
            onDemoRefused={showDemoModal}
          />
          <LocationPrivacy
            exact={profile.data.exactPublicLocation}
            disabled={profile.data.isDemo}
            onDemoRefused={showDemoModal}
          />
          <HomeArea
            homeArea={profile.data.homeArea}
            disabled={profile.data.isDemo}
            onDemoRefused={showDemoModal}
          />
          <AltTextReminder
            on={profile.data.altTextReminder}
            disabled={profile.data.isDemo}
            onDemoRefused={showDemoModal}
          />
          <LanguageChoice />
          <Appearance />
          <NotificationPreferences disabled={profile.data.isDemo} onDemoRefused={showDemoModal} />
          <PushNotifications disabled={profile.data.isDemo} onDemoRefused={showDemoModal} />
          <HiddenPosts disabled={profile.data.isDemo} onDemoRefused={showDemoModal} />
          <BlockedUsers disabled={profile.data.isDemo} onDemoRefused={showDemoModal} />
          <TrashLink />
          <ModerationLink />
          <DataExport onDemoRefused={showDemoModal} />
          <DeleteAccount
            userId={userId ?? profile.data._id}
            disabled={profile.data.isDemo}
            onDemoRefused={showDemoModal}
          />
        </>
      )}
      {demoRefused && <DemoDisabledModal onClose={() => setDemoRefused(false)} />}
    </div>
  );
}
