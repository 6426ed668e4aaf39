/** A place as the picker hands it on: degrees, like the photo's GPS. */
export interface Coordinates {
  latitude: number;
  longitude: number;
}

export interface DevicePosition extends Coordinates {
  /** Metres, as the browser estimates them (a desktop placed by its network may be kilometres off). */
  accuracy: number;
}

export type GeolocationFailure = 'unsupported' | 'denied' | 'unavailable' | 'timeout';

/**
 * How long the browser may look for a position once allowed to. Phones outdoors answer within a few
 * seconds; after 15 the person is better served by the map than by waiting.
 */
export const GEOLOCATION_TIMEOUT_MS = 15_000;

export class GeolocationError extends Error {
  constructor(readonly reason: GeolocationFailure) {
    super(reason);
    this.name = 'GeolocationError';
  }
}

/** The codes of GeolocationPositionError (constants, so stubs need not provide them). */
const PERMISSION_DENIED = 1;
const TIMEOUT = 3;

/** One position from the browser, or a GeolocationError saying why there is none. */
export function currentPosition(geolocation: Geolocation | undefined = navigator.geolocation) {
  return new Promise<DevicePosition>((resolve, reject) => {
    if (!geolocation) {
      reject(new GeolocationError('unsupported'));
      return;
    }
    geolocation.getCurrentPosition(
      ({ coords }) =>
        resolve({ latitude: coords.latitude, longitude: coords.longitude, accuracy: coords.accuracy }),
      (error) =>
        reject(
          new GeolocationError(
            error.code === PERMISSION_DENIED ? 'denied' : error.code === TIMEOUT ? 'timeout' : 'unavailable',
          ),
        ),
      // A position from the last minute is as good as a new one, and saves the phone a GPS fix.
      { enableHighAccuracy: true, timeout: GEOLOCATION_TIMEOUT_MS, maximumAge: 60_000 },
    );
  });
}
