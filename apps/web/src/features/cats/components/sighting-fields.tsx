import { useId, type ReactNode } from 'react';
import { TextField } from '../../../components/form-field.tsx';
import { AlertIcon } from '../../../components/icons.tsx';
import {
  LocationChooser,
  type ChosenLocation,
  type LocationSource,
} from '../../../components/location-picker/location-chooser.tsx';
import { defineMessage, type MessageDescriptor } from '../../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { toLocalInput } from './missing-form.ts';

/** What the place picker says of a place where a cat was seen (its default words are about pictures). */
const PLACE_SENTENCES: Partial<Record<LocationSource, MessageDescriptor>> = {
  device: defineMessage({
    id: 'missing.place.device',
    defaultMessage: 'This is your current location, as your browser reported it.',
  }),
  map: defineMessage({ id: 'missing.place.map', defaultMessage: 'You picked this place on the map.' }),
};

interface WhenAndWhereFieldsProps {
  /** The time field's label, the form's own question ('When did you see Luna?'). */
  whenLabel: string;
  when: string;
  onWhenChange: (next: string) => void;
  whenError?: string | undefined;
  /** The place group's legend, the form's own question ('Where did you see Luna?'). */
  whereLabel: string;
  place: ChosenLocation | null;
  onPlaceChange: (next: ChosenLocation | null) => void;
  placeError?: string | undefined;
  /** The map's instructions and accessible name, in the form's words. */
  mapHelp: string;
  mapLabel: string;
  /** While the form is sent the place can't change. */
  disabled: boolean;
  /** Said at the end of the place group (who will see the place, say). */
  placeNote?: ReactNode;
}

/**
 * When and where a cat was seen, as 'Mark as missing' and 'I saw this cat' both ask it: a date and
 * time no later than now (the browser's picker stops there), and a place from the device or the map,
 * which can't be removed (the forms need one).
 */
export function WhenAndWhereFields({
  whenLabel,
  when,
  onWhenChange,
  whenError,
  whereLabel,
  place,
  onPlaceChange,
  placeError,
  mapHelp,
  mapLabel,
  disabled,
  placeNote,
}: WhenAndWhereFieldsProps) {
  const id = useId();
  const placeErrorId = `${id}-place-error`;
  const t = useTranslate();
  const sentences: Partial<Record<LocationSource, string>> = {};
  for (const [source, message] of Object.entries(PLACE_SENTENCES) as [LocationSource, MessageDescriptor][])
    sentences[source] = t(message);
  return (
    <>
      <TextField
        label={whenLabel}
        name={`${id}-when`}
        type="datetime-local"
        required
        max={toLocalInput(new Date())}
        value={when}
        error={whenError}
        onChange={(e) => onWhenChange(e.target.value)}
      />
      <fieldset className="missing-dialog__group" aria-describedby={placeError ? placeErrorId : undefined}>
        <legend>{whereLabel}</legend>
        <LocationChooser
          value={place}
          onChange={onPlaceChange}
          removable={false}
          disabled={disabled}
          emptyMessage={
            <p className="location-picker__source">
              <Message
                id="missing.place.empty"
                defaultMessage="Use your current location, or pick the place on the map."
              />
            </p>
          }
          sentences={sentences}
          mapHelp={mapHelp}
          mapLabel={mapLabel}
        />
        {placeError && (
          <p id={placeErrorId} className="field__error">
            <AlertIcon size={16} />
            {placeError}
          </p>
        )}
        {placeNote}
      </fieldset>
    </>
  );
}
