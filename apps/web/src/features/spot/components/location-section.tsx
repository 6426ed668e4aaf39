import { useId } from 'react';
import { useMyProfile } from '../../../lib/my-profile.ts';
import {
  LocationChooser,
  type ChosenLocation,
} from '../../../components/location-picker/location-chooser.tsx';
import { Message } from '../../../i18n/message.tsx';

interface LocationSectionProps {
  /** The place the post will carry: from the photo, the browser or the map; null for none. */
  location: ChosenLocation | null;
  onLocationChange: (next: ChosenLocation | null) => void;
  /** The photo itself had GPS: its place can be corrected, not removed (the switch hides it). */
  photoHasGps: boolean;
  showLocation: boolean;
  onChange: (on: boolean) => void;
  sharedWithGroups: boolean;
}

/**
 * The location switch (default on). Besides the spec's warning it says plainly who sees the spot and
 * how precisely (issue 7, point 7): the server rounds public locations to a grid of about 500 m. A
 * photo without GPS keeps the spec's sentence and gets a place from the browser or the map (issue 26);
 * from then on it behaves as a photo's own place.
 */
export function LocationSection({
  location,
  onLocationChange,
  photoHasGps,
  showLocation,
  onChange,
  sharedWithGroups,
}: LocationSectionProps) {
  const switchId = useId();
  // Owners may choose exact public locations in settings; the default is about 500 m.
  const exact = useMyProfile().data?.exactPublicLocation === true;
  const chooser = (
    <LocationChooser
      value={location}
      onChange={onLocationChange}
      removable={!photoHasGps}
      emptyMessage={
        <p className="spot-location__none">
          <Message id="spot.location.none" defaultMessage="No location data available for this picture" />
        </p>
      }
    />
  );
  if (!location) {
    return <div className="spot-location">{chooser}</div>;
  }
  return (
    <div className="spot-location">
      {chooser}
      <div className="spot-location__row">
        <input
          id={switchId}
          type="checkbox"
          role="switch"
          className="spot-location__switch"
          checked={showLocation}
          onChange={(e) => onChange(e.target.checked)}
        />
        <label htmlFor={switchId}>
          {showLocation ? (
            <Message id="spot.location.visible" defaultMessage="Location visible" />
          ) : (
            <Message id="spot.location.hidden" defaultMessage="Location hidden" />
          )}
        </label>
      </div>
      {showLocation ? (
        <>
          <p className="spot-location__warning">
            <Message
              id="spot.location.warning"
              defaultMessage="App in development! Every user can see the location of your pictures when active."
            />
          </p>
          <p className="spot-location__detail">
            {exact ? (
              <Message
                id="spot.location.exact"
                defaultMessage="Other people see the exact spot, because you chose exact locations in your settings."
              />
            ) : (
              <Message
                id="spot.location.approximate"
                defaultMessage="Other people see this spot to within about 500 m. Only you see the exact place."
              />
            )}
          </p>
        </>
      ) : (
        <p className="spot-location__detail">
          <Message
            id="spot.location.private"
            defaultMessage="Only you can see where this picture was taken."
          />
        </p>
      )}
      {sharedWithGroups && (
        <p className="spot-location__detail">
          <Message
            id="spot.location.groups"
            defaultMessage="Members of the groups you share it with see the exact spot."
          />
        </p>
      )}
    </div>
  );
}
