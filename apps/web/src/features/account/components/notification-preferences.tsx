import { useState } from 'react';
import type { NotificationType } from '@cats/contracts';
import { Checkbox } from '../../../components/form-field.tsx';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import { defineMessage, type MessageDescriptor } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import {
  useNotificationPreferences,
  useSetNotificationPreference,
  type Channel,
} from '../api/notification-preferences.ts';
import {
  errorText,
  FormStatusMessage,
  LoadErrorText,
  SettingsCard,
  type FormStatus,
} from './settings-card.tsx';

/**
 * Each pair of switches: what it is about, as the person would say it. Accepted and declined requests
 * are one topic to the person asking, so one pair sets both.
 */
const ROWS: { label: MessageDescriptor; types: NotificationType[] }[] = [
  {
    label: defineMessage({ id: 'settings.notifications.like', defaultMessage: 'Likes on your pictures' }),
    types: ['like'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.comment',
      defaultMessage: 'Comments on your pictures',
    }),
    types: ['comment'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.reply',
      defaultMessage: 'Replies in threads you commented in',
    }),
    types: ['reply'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.joinRequest',
      defaultMessage: 'Requests to join your groups',
    }),
    types: ['join_request'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.requestAnswer',
      defaultMessage: 'Answers to your join requests',
    }),
    types: ['request_accepted', 'request_declined'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.removedFromGroup',
      defaultMessage: 'Removal from a group',
    }),
    types: ['removed_from_group'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.groupShare',
      defaultMessage: 'Pictures shared with your groups',
    }),
    types: ['group_share'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.catSighting',
      defaultMessage: 'New sightings of cats you follow or care for',
    }),
    types: ['cat_sighting'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.catMissingNearby',
      defaultMessage: 'Cats missing near your home area',
    }),
    types: ['cat_missing_nearby'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.catFound',
      defaultMessage: 'Missing cats found again',
    }),
    types: ['cat_found'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.missingReport',
      defaultMessage: 'Sightings of your missing cats',
    }),
    types: ['missing_report'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.catSuggestion',
      defaultMessage: 'Suggestions of which cat your pictures show',
    }),
    types: ['cat_suggestion'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.catSuggestionAccepted',
      defaultMessage: 'Your cat suggestions that were accepted',
    }),
    types: ['cat_suggestion_accepted'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.moderation',
      defaultMessage: 'Moderators’ decisions about your content and answers to your appeals',
    }),
    types: ['moderation_decision', 'appeal_decided'],
  },
  {
    label: defineMessage({
      id: 'settings.notifications.reportOutcome',
      defaultMessage: 'What came of your reports',
    }),
    types: ['report_outcome'],
  },
];

const CHANNEL_LABELS: Record<Channel, MessageDescriptor> = {
  inApp: defineMessage({ id: 'settings.notifications.inApp', defaultMessage: 'In the app' }),
  push: defineMessage({ id: 'settings.notifications.push', defaultMessage: 'Push' }),
};
const CHANNELS: Channel[] = ['inApp', 'push'];

interface Props {
  disabled: boolean;
  onDemoRefused: () => void;
}

/** Settings (issue 25): a switch per kind of notification, in the app and by push. */
export function NotificationPreferences({ disabled, onDemoRefused }: Props) {
  const query = useNotificationPreferences();
  const [status, setStatus] = useState<FormStatus>(null);
  const t = useTranslate();
  const mutation = useSetNotificationPreference((err) =>
    isDemoDisabledError(err)
      ? onDemoRefused()
      : setStatus({
          kind: 'error',
          text: t(
            { id: 'settings.notifications.notSaved', defaultMessage: 'Your change was not saved: {error}' },
            { error: errorText(err) },
          ),
        }),
  );
  return (
    <SettingsCard
      title={t({ id: 'settings.notifications.title', defaultMessage: 'Notifications' })}
      description={t({
        id: 'settings.notifications.description',
        defaultMessage:
          'Choose what you are told about, in the app and by push notification on the devices where you turned push on.',
      })}
    >
      {(headingId) =>
        query.isPending ? (
          <p className="loading-text">
            <Message id="settings.loading" defaultMessage="Loading..." />
          </p>
        ) : query.isError ? (
          <LoadErrorText error={query.error} />
        ) : (
          <>
            {disabled && (
              <p className="settings-card__explanation">
                <Message
                  id="settings.notifications.demo"
                  defaultMessage="The demo account cannot change its notifications."
                />
              </p>
            )}
            <div className="notification-preferences">
              {ROWS.map(({ label, types }) => (
                <div
                  key={types[0]}
                  role="group"
                  aria-labelledby={`${headingId}-${types[0]}`}
                  className="notification-preferences__row"
                >
                  <p id={`${headingId}-${types[0]}`} className="notification-preferences__type">
                    {t(label)}
                  </p>
                  <div className="notification-preferences__switches">
                    {CHANNELS.map((channel) => (
                      <Checkbox
                        key={channel}
                        switch
                        label={t(CHANNEL_LABELS[channel])}
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
