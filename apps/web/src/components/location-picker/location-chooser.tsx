import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM } from '@cats/contracts';
import { Button } from '../button.tsx';
import { defineMessage, type MessageDescriptor } from '../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import { useLastSpot } from './api/get-last-spot.ts';
import {
  currentPosition,
  GeolocationError,
  type Coordinates,
  type GeolocationFailure,
} from './geolocation.ts';
import './location-picker.css';

const MapPicker = lazy(() => import('./map-picker.tsx'));

/** Where a place came from, so the screen can say so. */
export type LocationSource = 'photo' | 'device' | 'map' | 'saved';

export interface ChosenLocation extends Coordinates {
  source: LocationSource;
  /** Metres, for a place from the browser. */
  accuracy?: number;
}

const SOURCE_SENTENCES: Record<LocationSource, MessageDescriptor> = {
  photo: defineMessage({
    id: 'locationPicker.source.photo',
    defaultMessage: 'This location comes from the photo.',
  }),
  device: defineMessage({
    id: 'locationPicker.source.device',
    defaultMessage: 'This is your current location, as your browser reported it.',
  }),
  map: defineMessage({
    id: 'locationPicker.source.map',
    defaultMessage: 'You picked this location on the map.',
  }),
  saved: defineMessage({
    id: 'locationPicker.source.saved',
    defaultMessage: 'This is the location saved with the picture.',
  }),
};

const FAILURE_MESSAGES: Record<GeolocationFailure, MessageDescriptor> = {
  unsupported: defineMessage({
    id: 'locationPicker.failure.unsupported',
    defaultMessage: 'This browser cannot share your location. Pick the place on the map instead.',
  }),
  denied: defineMessage({
    id: 'locationPicker.failure.denied',
    defaultMessage:
      "Your browser did not allow this site to use your location. Allow it in the browser's site settings, or pick the place on the map instead.",
  }),
  unavailable: defineMessage({
    id: 'locationPicker.failure.unavailable',
    defaultMessage:
      'Your location is not available right now. Try again in a moment, or pick the place on the map instead.',
  }),
  timeout: defineMessage({
    id: 'locationPicker.failure.timeout',
    defaultMessage: 'Finding your location took too long. Try again, or pick the place on the map instead.',
  }),
};

/** Above this the browser's guess (often from the network) is worth checking on the map. */
const VAGUE_METRES = 100;
/** Zoom for a known place: streets and houses, to set the pin precisely. */
const CLOSE_ZOOM = 16;
const round = (degrees: number) => Math.round(degrees * 1e6) / 1e6;

interface LocationChooserProps {
  value: ChosenLocation | null;
  onChange: (next: ChosenLocation | null) => void;
  /** What to say while there is no place (Spot keeps the spec's sentence). */
  emptyMessage: ReactNode;
  /** Whether 'Remove location' is offered once there is a place. */
  removable: boolean;
  disabled?: boolean;
  /** What to say of a place from each source, where a picture's words do not fit (a home area). */
  sentences?: Partial<Record<LocationSource, string>>;
  /** The map's help and accessible name, where the place is not where a picture was taken. */
  mapHelp?: string;
  mapLabel?: string;
  /** The remove button's words ('Remove location' by default). */
  removeLabel?: string;
}

/**
 * Issue 26, 'Spot without GPS': set where a picture was taken from the browser's position or on a map,
 * and say where the place came from. The map opens on the place already chosen, else on the signer's
 * last located post, else on the app's default view.
 */
export function LocationChooser({
  value,
  onChange,
  emptyMessage,
  removable,
  disabled,
  sentences,
  mapHelp,
  mapLabel,
  removeLabel,
}: LocationChooserProps) {
  const t = useTranslate();
  const [locating, setLocating] = useState(false);
  const [failure, setFailure] = useState<GeolocationFailure | null>(null);
  const [mapOpen, setMapOpen] = useState(false);
  const lastSpot = useLastSpot(mapOpen && value === null);
  const mapButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  // A position that arrives after the screen moved on is dropped.
  const request = useRef(0);
  useEffect(
    () => () => {
      request.current += 1;
    },
    [],
  );
  useEffect(() => {
    if (!mapOpen && returnFocus.current) {
      returnFocus.current = false;
      mapButton.current?.focus();
    }
  }, [mapOpen]);

  const locate = async () => {
    const id = (request.current += 1);
    setFailure(null);
    setLocating(true);
    try {
      const position = await currentPosition();
      if (id !== request.current) return;
      onChange({
        latitude: round(position.latitude),
        longitude: round(position.longitude),
        accuracy: position.accuracy,
        source: 'device',
      });
    } catch (error) {
      if (id !== request.current) return;
      setFailure(error instanceof GeolocationError ? error.reason : 'unavailable');
    } finally {
      if (id === request.current) setLocating(false);
    }
  };

  const openMap = () => {
    request.current += 1;
    setLocating(false);
    setFailure(null);
    setMapOpen(true);
  };
  const closeMap = () => {
    returnFocus.current = true;
    setMapOpen(false);
  };

  // The map waits for the last spot (a quick request) so that it opens in the right place at once.
  const start: { at: Coordinates; zoom: number } | null = value
    ? { at: value, zoom: CLOSE_ZOOM }
    : lastSpot.isPending
      ? null
      : lastSpot.data
        ? { at: lastSpot.data, zoom: CLOSE_ZOOM }
        : {
            at: { latitude: MAP_DEFAULT_CENTER.lat, longitude: MAP_DEFAULT_CENTER.lng },
            zoom: MAP_DEFAULT_ZOOM,
          };

  const vague = value?.source === 'device' && value.accuracy !== undefined && value.accuracy > VAGUE_METRES;
  const loadingMap = (
    <p role="status" className="location-picker__status">
      <Message id="locationPicker.loadingMap" defaultMessage="Loading the map..." />
    </p>
  );

  return (
    <div className="location-picker">
      {value ? (
        <p className="location-picker__source">
          {sentences?.[value.source] ?? t(SOURCE_SENTENCES[value.source])}
        </p>
      ) : (
        emptyMessage
      )}
      {vague && (
        <p className="location-picker__detail">
          <Message
            id="locationPicker.vague"
            defaultMessage="Your browser placed you to within about {metres} m, so check the place on the map."
            // A string: '1530 m', as a distance is written, without a thousands separator.
            values={{ metres: String(Math.round(value.accuracy! / 10) * 10) }}
          />
        </p>
      )}
      {!mapOpen && (
        <div className="location-picker__choices">
          <Button variant="secondary" disabled={disabled || locating} onClick={() => void locate()}>
            <Message id="locationPicker.useCurrent" defaultMessage="Use my current location" />
          </Button>
          <Button ref={mapButton} variant="secondary" disabled={disabled} onClick={openMap}>
            {value ? (
              <Message id="locationPicker.changeOnMap" defaultMessage="Change on the map" />
            ) : (
              <Message id="locationPicker.pickOnMap" defaultMessage="Pick on the map" />
            )}
          </Button>
          {value && removable && (
            <Button
              variant="ghost"
              disabled={disabled}
              onClick={() => {
                setFailure(null);
                onChange(null);
              }}
            >
              {removeLabel ?? t({ id: 'locationPicker.remove', defaultMessage: 'Remove location' })}
            </Button>
          )}
        </div>
      )}
      {locating && (
        <p role="status" className="location-picker__status">
          <Message id="locationPicker.finding" defaultMessage="Finding your location..." />
        </p>
      )}
      {failure && (
        <p role="alert" className="location-picker__error">
          {t(FAILURE_MESSAGES[failure])}
        </p>
      )}
      {mapOpen &&
        (start ? (
          <Suspense fallback={loadingMap}>
            <MapPicker
              start={start.at}
              zoom={start.zoom}
              help={mapHelp}
              label={mapLabel}
              onCancel={closeMap}
              onConfirm={(place) => {
                onChange({ ...place, source: 'map' });
                closeMap();
              }}
            />
          </Suspense>
        ) : (
          loadingMap
        ))}
    </div>
  );
}
