import { useState } from 'react';
import type { NotificationType } from '@cats/contracts';
import { Checkbox } from '../../../components/form-field.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import {
  useNotificationPreferences,
  useSetNotificationPreference,
  type Channel,
} from '../api/notification-preferences.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

/**
 * Each pair of switches: what it is about, as the person would say it. Accepted and declined requests
 * are one topic to the person asking, so one pair sets both.
 */
const ROWS: { label: string; types: NotificationType[] }[] = [
  { label: 'Likes on your pictures', types: ['like'] },
  { label: 'Comments on your pictures', types: ['comment'] },
  { label: 'Replies in threads you commented in', types: ['reply'] },
  { label: 'Requests to join your groups', types: ['join_request'] },
  { label: 'Answers to your join requests', types: ['request_accepted', 'request_declined'] },
  { label: 'Removal from a group', types: ['removed_from_group'] },
  { label: 'Pictures shared with your groups', types: ['group_share'] },
  { label: 'New sightings of cats you follow or care for', types: ['cat_sighting'] },
  { label: 'Cats missing near your home area', types: ['cat_missing_nearby'] },
  { label: 'Missing cats found again', types: ['cat_found'] },
  { label: 'Sightings of your missing cats', types: ['missing_report'] },
  { label: 'Suggestions of which cat your pictures show', types: ['cat_suggestion'] },
  { label: 'Your cat suggestions that were accepted', types: ['cat_suggestion_accepted'] },
  {
    label: 'Moderators’ decisions about your content and answers to your appeals',
    types: ['moderation_decision', 'appeal_decided'],
  },
  { label: 'What came of your reports', types: ['report_outcome'] },
];

const CHANNEL_LABELS: Record<Channel, string> = { inApp: 'In the app', push: 'Push' };
const CHANNELS: Channel[] = ['inApp', 'push'];

interface Props {
  disabled: boolean;
  onDemoRefused: () => void;
}

/** Settings (issue 25): a switch per kind of notification, in the app and by push. */
export function NotificationPreferences({ disabled, onDemoRefused }: Props) {
  const query = useNotificationPreferences();
  const [status, setStatus] = useState<FormStatus>(null);
  const mutation = useSetNotificationPreference((err) =>
    isDemoDisabledError(err)
      ? onDemoRefused()
      : setStatus({ kind: 'error', text: `Your change was not saved: ${errorText(err)}` }),
  );
  return (
    <SettingsCard
      title="Notifications"
      description="Choose what you are told about, in the app and by push notification on the devices where you turned push on."
    >
      {(headingId) =>
        query.isPending ? (
          <p className="loading-text">Loading...</p>
        ) : query.isError ? (
          <p className="notice notice--error">Error: {errorText(query.error)}</p>
        ) : (
          <>
            {disabled && (
              <p className="settings-card__explanation">The demo account cannot change its notifications.</p>
            )}
            <div className="notification-preferences">
              {ROWS.map(({ label, types }) => (
                <div
                  key={label}
                  role="group"
                  aria-labelledby={`${headingId}-${types[0]}`}
                  className="notification-preferences__row"
                >
                  <p id={`${headingId}-${types[0]}`} className="notification-preferences__type">
                    {label}
                  </p>
                  <div className="notification-preferences__switches">
                    {CHANNELS.map((channel) => (
                      <Checkbox
                        key={channel}
                        switch
                        label={CHANNEL_LABELS[channel]}
                        checked={types.every((type) => query.data.preferences[type][channel])}
                        // Not disabled while saving: a disabled control would drop the keyboard focus.
                        disabled={disabled}
                        onChange={(e) => {
                          setStatus(null);
                          mutation.mutate({ types, channel, on: e.target.checked });
                        }}
                      />
                    ))}
                  </div>
                </div>
              ))}
            </div>
            <FormStatusMessage status={status} />
          </>
        )
      }
    </SettingsCard>
  );
}
