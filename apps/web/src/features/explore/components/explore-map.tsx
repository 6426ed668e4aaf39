import 'leaflet/dist/leaflet.css';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LatLngBounds, TileErrorEvent } from 'leaflet';
import { MapContainer, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  MAP_MAX_ZOOM,
  type MapCluster,
  type MapMarker,
  type MapViewport,
  type MissingAlert,
} from '@cats/contracts';
import { usePainted } from '../../../lib/after-paint.ts';
import { DESKTOP_QUERY, useMediaQuery } from '../../../lib/use-media-query.ts';
import { MAP_VIEW_OPTIONS, TILE_LAYER_OPTIONS } from '../../../lib/leaflet-tiles.ts';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { exploreKeys, useExploreViewport } from '../api/get-explore.ts';
import { prefetchExplorePost } from '../api/get-explore-posts.ts';
import { useMapConfig } from '../api/get-map-config.ts';
import { useMissingMap } from '../api/get-missing-map.ts';
import { VIEWPORT_DEBOUNCE_MS, markerAlt, toViewport } from '../lib/viewport.ts';
import { visiblePosts } from '../lib/visible-posts.ts';
import { ExploreList } from './explore-list.tsx';
import { LocateControl } from './locate-control.tsx';
import { MarkerLayer, type MarkerActions } from './marker-layer.tsx';
import { MissingPins } from './missing-pins.tsx';
import type { Selection } from './post-detail-dialog.tsx';
import { Message } from '../../../i18n/message.tsx';
import { PawIcon } from '../../../components/icons.tsx';

const NO_ALERTS: MissingAlert[] = [];

/**
 * The detail card and the feed's card inside it (its menus, dialogs and comments) are a third of the
 * screen's code, and no one needs them before the first tap on a marker: they load at the first touch,
 * click or key on the screen, or when the pointer comes over a marker, instead of with the map. Not
 * when the page goes idle: the loader's preload links for the card's 20 files cost a 140-360 ms task
 * on a throttled phone (docs/performance.md).
 */
const loadPostDetailDialog = () => import('./post-detail-dialog.tsx');
const PostDetailDialog = lazy(async () => ({ default: (await loadPostDetailDialog()).PostDetailDialog }));
const preloadPostDetailDialog = () => void loadPostDetailDialog();

/** A transparent pixel for tiles that fail: the plain background shows instead of a broken image. */
const BLANK_TILE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

const reducedMotion = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

/** Reports the padded viewport once at start and after each pan or zoom, debounced. */
function ViewportWatcher({ onChange }: { onChange: (viewport: MapViewport) => void }) {
  const map = useMap();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const report = useCallback(() => onChange(toViewport(map.getBounds(), map.getZoom())), [map, onChange]);
  useEffect(() => {
    report();
    return () => clearTimeout(timer.current);
  }, [report]);
  useMapEvents({
    moveend: () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(report, VIEWPORT_DEBOUNCE_MS);
    },
  });
  return null;
}

/** Reports the visible bounds (unpadded) at start and after each pan or zoom: the desktop list's area. */
function BoundsWatcher({ onChange }: { onChange: (bounds: LatLngBounds) => void }) {
  const map = useMap();
  useEffect(() => onChange(map.getBounds()), [map, onChange]);
  useMapEvents({ moveend: () => onChange(map.getBounds()) });
  return null;
}

/** Zooms in on a cluster to the zoom where it splits. */
function useZoomTo() {
  const map = useMap();
  return useCallback(
    (cluster: MapCluster) =>
      map.setView([cluster.latitude, cluster.longitude], Math.min(cluster.expansionZoom, MAP_MAX_ZOOM), {
        animate: !reducedMotion(),
      }),
    [map],
  );
}

/** The viewport's markers, and what they do when activated or hovered. */
function Markers({
  markers,
  clusters,
  onOpen,
  highlighted,
  onHighlight,
}: {
  markers: MapMarker[];
  clusters: MapCluster[];
  onOpen: (selection: Selection) => void;
  highlighted: string | null;
  onHighlight: (postId: string | null) => void;
}) {
  const zoomTo = useZoomTo();
  const queryClient = useQueryClient();
  const actions = useMemo<MarkerActions>(
    () => ({
      openPost: (marker) => onOpen({ postId: marker._id, title: markerAlt(marker) }),
      hoverPost: (marker) => {
        preloadPostDetailDialog();
        prefetchExplorePost(queryClient, marker._id);
      },
      highlightPost: onHighlight,
      zoomTo,
      openStack: (cluster) => onOpen({ clusterId: cluster.id }),
    }),
    [onOpen, onHighlight, queryClient, zoomTo],
  );
  return <MarkerLayer markers={markers} clusters={clusters} actions={actions} highlighted={highlighted} />;
}

/** The tiles, one paint after the map: Leaflet's start and the first tiles each get a task of their own. */
function Tiles({ url, attribution }: { url: string; attribution: string }) {
  const painted = usePainted();
  const tileEvents = useMemo(
    () => ({ tileerror: (e: TileErrorEvent) => e.tile.classList.add('explore-map__tile--failed') }),
    [],
  );
  if (!painted) return null;
  return (
    <TileLayer
      url={url}
      attribution={attribution}
      {...TILE_LAYER_OPTIONS}
      errorTileUrl={BLANK_TILE}
      eventHandlers={tileEvents}
    />
  );
}

/**
 * The Explore map (spec section 2): Leaflet through react-leaflet, loaded only with this screen. Tiles
 * come from the server's config (OpenStreetMap's standard tiles by default, which carry no separate
 * POI layer to hide); when they fail the map keeps working over a plain background.
 */
export default function ExploreMap() {
  const config = useMapConfig();
  const [viewport, setViewport] = useState<MapViewport | null>(null);
  const explore = useExploreViewport(viewport);
  const missing = useMissingMap(viewport);
  const [selected, setSelected] = useState<Selection | null>(null);
  const queryClient = useQueryClient();

  // Issue 28: on a desktop a list of the posts on screen stands beside the map.
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const [bounds, setBounds] = useState<LatLngBounds | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const visible = useMemo(
    () => visiblePosts(explore.data?.markers ?? [], explore.data?.clusters ?? [], bounds),
    [explore.data, bounds],
  );
  const openFromList = useCallback(
    (marker: MapMarker) => setSelected({ postId: marker._id, title: markerAlt(marker) }),
    [],
  );

  const open = useCallback((selection: Selection) => setSelected(selection), []);
  const close = useCallback(() => {
    setSelected(null);
    // Likes, hides and blocks made in the card change counts and markers.
    void queryClient.invalidateQueries({ queryKey: exploreKeys.viewports });
  }, [queryClient]);

  // Leaflet measures its container as it starts, which makes the browser lay out the whole screen
  // React has just built, in the same task. Starting it after the screen's first paint splits that
  // work in two (docs/performance.md); the status line below shows meanwhile.
  const painted = usePainted();

  return (
    // A first touch, click or key on the screen may be the one that opens a card: its code starts now.
    <div
      className="explore-map"
      onPointerDownCapture={preloadPostDetailDialog}
      onKeyDownCapture={preloadPostDetailDialog}
    >
      {desktop && (
        <ExploreList
          visible={visible}
          loading={!explore.data && !explore.isError}
          highlighted={highlighted}
          onHighlight={setHighlighted}
          onOpen={openFromList}
        />
      )}
      <div className="explore-map__stage">
        {painted ? (
          <MapContainer
            className="explore-map__leaflet"
            {...MAP_VIEW_OPTIONS}
            zoomAnimation={!reducedMotion()}
          >
            {config.data && <Tiles url={config.data.tileUrl} attribution={config.data.attribution} />}
            <ViewportWatcher onChange={setViewport} />
            {desktop && <BoundsWatcher onChange={setBounds} />}
            {explore.data && (
              <Markers
                markers={explore.data.markers}
                clusters={explore.data.clusters}
                onOpen={open}
                highlighted={highlighted}
                onHighlight={setHighlighted}
              />
            )}
            {/* Issue 26: the viewport's missing cats, as red pins over the posts. */}
            <MissingPins alerts={missing.data?.alerts ?? NO_ALERTS} />
            <LocateControl />
          </MapContainer>
        ) : (
          <div className="explore-map__leaflet" />
        )}
        {!explore.data && !explore.isError && (
          <p className="explore-map__status" role="status">
            <Message id="explore.page.loading" defaultMessage="Tracking neighbourhood cats..." />
          </p>
        )}
        {explore.isError && (
          <p className="explore-map__status explore-map__status--error" role="alert">
            <Message
              id="explore.map.error"
              defaultMessage="Error: {message}"
              values={{ message: errorMessage(explore.error) }}
            />
          </p>
        )}
        {/* The neighbourhood's cats as a list, searchable by name (cats-page.tsx). */}
        <Link className="explore-map__cats-link" to="/cats">
          <PawIcon size={18} />
          <Message id="explore.map.catsLink" defaultMessage="All cats" />
        </Link>
        {explore.data && missing.data?.truncated && (
          <p className="explore-map__note" role="status">
            <Message
              id="explore.map.missingTruncated"
              defaultMessage="More missing cats are here than the map can show at once. Zoom in to see them all."
            />
          </p>
        )}
      </div>
      {selected && (
        <Suspense fallback={null}>
          <PostDetailDialog selection={selected} onClose={close} />
        </Suspense>
      )}
    </div>
  );
}
