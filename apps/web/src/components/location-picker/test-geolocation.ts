/** For unit tests: the browser's position, answered a tick later as a browser would. */
export function stubGeolocation(latitude: number, longitude: number) {
  Object.defineProperty(navigator, 'geolocation', {
    configurable: true,
    value: {
      getCurrentPosition: (success: PositionCallback) =>
        setTimeout(
          () =>
            success({ coords: { latitude, longitude, accuracy: 15 }, timestamp: 0 } as GeolocationPosition),
          0,
        ),
    },
  });
}
