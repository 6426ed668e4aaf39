import { useEffect, useMemo, useState } from 'react';
import L from 'leaflet';
import { MapContainer, Marker, TileLayer, useMap } from 'react-leaflet';
import 'leaflet/dist/leaflet.css';
import { MAP_MARKER_SIZE, type Post } from '@cats/contracts';
import { PostCard } from '../../../components/post/post-card.tsx';
import { MAP_VIEW_OPTIONS, TILE_LAYER_OPTIONS, escapeHtml } from '../../../lib/leaflet-tiles.ts';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { useGroupMap } from '../api/get-group-posts.ts';
import { useMapConfig } from '../api/get-map-config.ts';
import { EmptyPictures } from './group-feed.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';

type Translate = ReturnType<typeof useTranslate>;

const located = (p: Post): p is Post & { latitude: number; longitude: number } =>
  Number.isFinite(p.latitude) && Number.isFinite(p.longitude);

function markerIcon(post: Post, t: Translate): L.DivIcon {
  const src = post.image.variants[String(MAP_MARKER_SIZE)] ?? post.imageUrl;
  const alt = post.catName
    ? t({ id: 'groups.map.markerAlt', defaultMessage: 'Photo of {cat}' }, { cat: post.catName })
    : t(
        { id: 'groups.map.markerAltNoName', defaultMessage: 'Cat photo by {username}' },
        { username: post.user.username },
      );
  return L.divIcon({
    className: 'groups-map__marker',
    html: `<img src="${escapeHtml(src)}" width="${MAP_MARKER_SIZE}" height="${MAP_MARKER_SIZE}" alt="${escapeHtml(alt)}" />`,
    iconSize: [MAP_MARKER_SIZE, MAP_MARKER_SIZE],
    iconAnchor: [MAP_MARKER_SIZE / 2, MAP_MARKER_SIZE / 2],
  });
}

/** Frames every marker once the posts arrive (the default centre when there are none). */
function FitToPosts({ posts }: { posts: Post[] }) {
  const map = useMap();
  const key = posts.map((p) => p._id).join(',');
  useEffect(() => {
    const points = posts.filter(located).map((p) => L.latLng(p.latitude, p.longitude));
    if (points.length === 0) return;
    map.fitBounds(L.latLngBounds(points), { padding: [48, 48], maxZoom: 15 });
    // Only when the set of posts changes, not on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  return null;
}

/**
 * The group's map: one 64 px picture per located post, at its exact position (members only); a click
 * opens the post. Lazy-loaded, so Leaflet stays out of the rest of the app.
 */
export default function GroupMap({ groupId }: { groupId: string }) {
  const map = useGroupMap(groupId);
  const config = useMapConfig();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const t = useTranslate();
  const posts = useMemo(() => (map.data?.posts ?? []).filter(located), [map.data]);
  // `t` changes with the language: the pictures' alt texts are part of the icons.
  const icons = useMemo(() => new Map(posts.map((p) => [p._id, markerIcon(p, t)])), [posts, t]);
  const selected = posts.find((p) => p._id === selectedId) ?? null;

  useEffect(() => {
    if (!selected) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setSelectedId(null);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [selected]);

  if (map.isPending || config.isPending) {
    return (
      <p className="loading-text" role="status">
        <Message id="groups.map.loading" defaultMessage="Tracking the group's cats..." />
      </p>
    );
  }
  if (map.isError || config.isError) {
    return (
      <p className="notice notice--error" role="alert">
        <Message
          id="groups.error.message"
          defaultMessage="Error: {message}"
          values={{ message: errorMessage(map.error ?? config.error) }}
        />
      </p>
    );
  }
  return (
    <div className="groups-map">
      {posts.length === 0 && <EmptyPictures />}
      <div className="groups-map__frame">
        <MapContainer className="groups-map__map" {...MAP_VIEW_OPTIONS}>
          <TileLayer
            url={config.data.tileUrl}
            attribution={config.data.attribution}
            {...TILE_LAYER_OPTIONS}
          />
          {posts.map((post) => (
            <Marker
              key={post._id}
              position={[post.latitude, post.longitude]}
              icon={icons.get(post._id)!}
              title={
                post.catName ??
                t(
                  { id: 'groups.map.markerTitle', defaultMessage: 'Cat spotted by {username}' },
                  { username: post.user.username },
                )
              }
              eventHandlers={{ click: () => setSelectedId(post._id) }}
            />
          ))}
          <FitToPosts posts={posts} />
        </MapContainer>
        {selected && (
          <div
            className="groups-map__detail"
            role="dialog"
            aria-label={t({ id: 'groups.map.detail', defaultMessage: 'Picture on the map' })}
          >
            <div className="groups-map__detail-bar">
              <button
                type="button"
                className="groups-map__close"
                onClick={() => setSelectedId(null)}
                autoFocus
              >
                <Message id="groups.map.back" defaultMessage="← Back to the map" />
              </button>
            </div>
            <PostCard post={selected} imageSizes="400px" eager />
          </div>
        )}
      </div>
      <p className="groups-map__note muted">
        <Message
          id="groups.map.note"
          defaultMessage="{count, plural, one {# picture} other {# pictures}} on the map, at their exact places: only members of this group see them here."
          values={{ count: posts.length }}
        />
      </p>
    </div>
  );
}
