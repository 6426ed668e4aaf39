import { useState } from 'react';
import type { MyProfileResponse } from '@cats/contracts';
import { isDemoDisabledError } from '../../../components/message-modal.tsx';
import {
  LocationChooser,
  type ChosenLocation,
} from '../../../components/location-picker/location-chooser.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { useSetHomeArea } from '../api/set-home-area.ts';
import { errorText, FormStatusMessage, SettingsCard, type FormStatus } from './settings-card.tsx';

interface Props {
  homeArea: MyProfileResponse['homeArea'];
  disabled: boolean;
  onDemoRefused: () => void;
}

/**
 * Issue 26, "Missing cats": the area missing cats are shown and told around. Chosen with the same
 * picker as a picture's place (the browser's position or a pin on the map); the server keeps only its
 * ~500 m cell, which is what the picker shows once saved.
 */
export function HomeArea({ homeArea, disabled, onDemoRefused }: Props) {
  const mutation = useSetHomeArea();
  const [status, setStatus] = useState<FormStatus>(null);
  const t = useTranslate();
  const value: ChosenLocation | null = homeArea ? { ...homeArea, source: 'saved' } : null;

  const save = (next: ChosenLocation | null) => {
    setStatus(null);
    mutation.mutate(next && { latitude: next.latitude, longitude: next.longitude }, {
      onSuccess: () =>
        setStatus({
          kind: 'success',
          text: next
            ? t({ id: 'settings.homeArea.saved', defaultMessage: 'Your home area is saved.' })
            : t({ id: 'settings.homeArea.removed', defaultMessage: 'Your home area is removed.' }),
        }),
      onError: (err) =>
        isDemoDisabledError(err) ? onDemoRefused() : setStatus({ kind: 'error', text: errorText(err) }),
    });
  };

  return (
    <SettingsCard
      title={t({ id: 'settings.homeArea.title', defaultMessage: 'Home area for missing cats' })}
      description={t({
        id: 'settings.homeArea.description',
        defaultMessage:
          'Cats missing within 2 km of your home area appear at the top of your feed and on Explore, and you are told when one goes missing. Only the area of about 500 m around the place you choose is kept, and nobody else sees it.',
      })}
    >
      {() => (
        <>
          {disabled && (
            <p className="settings-card__explanation">
              <Message
                id="settings.homeArea.demo"
                defaultMessage="The demo account cannot choose a home area."
              />
            </p>
          )}
          <LocationChooser
            value={value}
            onChange={save}
            removable
            disabled={disabled || mutation.isPending}
            emptyMessage={
              <p className="location-picker__source">
                <Message
                  id="settings.homeArea.none"
                  defaultMessage="You have no home area yet. Until you choose one, missing cats are shown around where you last posted a picture."
                />
              </p>
            }
            sentences={{
              saved: t({
                id: 'settings.homeArea.savedPlace',
                defaultMessage: 'Your home area is the area of about 500 m around this point.',
              }),
              device: t({
                id: 'settings.homeArea.devicePlace',
                defaultMessage: 'This is your current location, as your browser reported it.',
              }),
              map: t({
                id: 'settings.homeArea.mapPlace',
                defaultMessage: 'You picked this place on the map.',
              }),
            }}
            mapHelp={t({
              id: 'settings.homeArea.mapHelp',
              defaultMessage:
                'Drag the pin or tap the map near your home. Only the area of about 500 m around it is kept. With a keyboard, focus the map and move the pin with the arrow keys.',
            })}
            mapLabel={t({
              id: 'settings.homeArea.mapLabel',
              defaultMessage: 'Map for choosing your home area',
            })}
            removeLabel={t({ id: 'settings.homeArea.remove', defaultMessage: 'Remove home area' })}
          />
          <FormStatusMessage status={status} />
        </>
      )}
    </SettingsCard>
  );
}
