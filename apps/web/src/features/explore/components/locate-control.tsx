import { useCallback, useState } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import { useTranslate } from '../../../i18n/message.tsx';

const LOCATED_ZOOM = 13;

/** Keeps presses on the control from also dragging or zooming the map under it. */
const isolate = (el: HTMLElement | null) => {
  if (!el) return;
  L.DomEvent.disableClickPropagation(el);
  L.DomEvent.disableScrollPropagation(el);
};

/** 'Locate me': centres the map on the browser's position when the person allows it. */
export function LocateControl() {
  const map = useMap();
  const t = useTranslate();
  const [status, setStatus] = useState<string | null>(null);
  const locate = useCallback(() => {
    setStatus(t({ id: 'explore.locate.finding', defaultMessage: 'Finding your location...' }));
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setStatus(null);
        map.setView(
          [position.coords.latitude, position.coords.longitude],
          Math.max(map.getZoom(), LOCATED_ZOOM),
        );
      },
      (error) =>
        setStatus(
          error.code === error.PERMISSION_DENIED
            ? t({
                id: 'explore.locate.denied',
                defaultMessage: 'Location access is turned off for this site',
              })
            : t({
                id: 'explore.locate.unavailable',
                defaultMessage: 'Your location is not available right now',
              }),
        ),
      { enableHighAccuracy: false, timeout: 10_000, maximumAge: 60_000 },
    );
  }, [map, t]);

  if (typeof navigator === 'undefined' || !('geolocation' in navigator)) return null;
  return (
    <div className="leaflet-top leaflet-right">
      <div className="leaflet-control leaflet-bar explore-locate" ref={isolate}>
        <button
          type="button"
          className="explore-locate__button"
          onClick={locate}
          title={t({ id: 'explore.locate.button', defaultMessage: 'Locate me' })}
          aria-label={t({ id: 'explore.locate.button', defaultMessage: 'Locate me' })}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <circle cx="12" cy="12" r="4" />
            <path d="M12 2v4M12 18v4M2 12h4M18 12h4" />
            <circle cx="12" cy="12" r="8" fill="none" />
          </svg>
        </button>
      </div>
      <p className="explore-locate__status" role="status">
        {status}
      </p>
    </div>
  );
}
