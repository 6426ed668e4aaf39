import { lazy, Suspense } from 'react';
import '../explore.css';

// The map (Leaflet, react-leaflet and their CSS) is a chunk of its own, fetched only on this screen.
const ExploreMap = lazy(() => import('../components/explore-map.tsx'));

/** Spec section 2, Explore: a map of spotted cats; the text below shows while the map loads. */
export default function ExplorePage() {
  return (
    <div className="explore-page">
      <h1 className="visually-hidden">Explore</h1>
      <Suspense
        fallback={
          <p className="loading-text" role="status">
            Tracking neighbourhood cats...
          </p>
        }
      >
        <ExploreMap />
      </Suspense>
    </div>
  );
}
