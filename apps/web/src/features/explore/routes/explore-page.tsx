import { lazy, Suspense } from 'react';
import '../explore.css';
import { Message } from '../../../i18n/message.tsx';

// The map (Leaflet, react-leaflet and their CSS) is a chunk of its own, fetched only on this screen.
const ExploreMap = lazy(() => import('../components/explore-map.tsx'));

/** Spec section 2, Explore: a map of spotted cats; the text below shows while the map loads. */
export default function ExplorePage() {
  return (
    <div className="explore-page">
      <h1 className="visually-hidden">
        <Message id="explore.page.title" defaultMessage="Explore" />
      </h1>
      <Suspense
        fallback={
          <p className="loading-text" role="status">
            <Message id="explore.page.loading" defaultMessage="Tracking neighbourhood cats..." />
          </p>
        }
      >
        <ExploreMap />
      </Suspense>
    </div>
  );
}
