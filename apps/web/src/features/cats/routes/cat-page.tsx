import { lazy, Suspense, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import type { Cat, CatMapPoint } from '@cats/contracts';
import { Button, buttonClass } from '../../../components/button.tsx';
import { DemoDisabledModal } from '../../../components/message-modal.tsx';
import { PawIcon } from '../../../components/icons.tsx';
import { PostImage } from '../../../components/post/post-image.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { ReportDialog } from '../../../components/report/report-dialog.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth-store.ts';
import { useCat } from '../api/get-cat.ts';
import { useCatMap } from '../api/get-cat-map.ts';
import { useMissingAlert } from '../api/missing-alert.ts';
import { CatFacts } from '../components/cat-facts.tsx';
import { CatHistory } from '../components/cat-history.tsx';
import { EditCatDialog } from '../components/edit-cat-dialog.tsx';
import { FollowButton } from '../components/follow-button.tsx';
import { LastSeen } from '../components/last-seen.tsx';
import { MarkMissingButton, MissingAlertPanel } from '../components/missing-section.tsx';
import { MergeCatDialog } from '../components/merge-cat-dialog.tsx';
import { SightingsTimeline } from '../components/sightings-timeline.tsx';
// The shared post UI's styles (images, lists), which come with the feed's card elsewhere.
import '../../../components/post/post.css';
import '../cats.css';
import { CatPageSkeleton, LoadingSkeleton } from '../../../components/skeleton/skeleton.tsx';

// Leaflet is a chunk of its own, fetched only on this page and only when a sighting can be placed.
const SightingsMap = lazy(() => import('../components/sightings-map.tsx'));

/** The cover fills the wide layout's left column (at most 720 px), the whole width on a phone. */
const COVER_SIZES = '(min-width: 900px) 720px, 100vw';

/** Issue 26, "Cat profiles": /cats/{catId}, a page per neighbourhood cat. */
export default function CatPage() {
  const { catId = '' } = useParams();
  return <CatView key={catId} catId={catId} />;
}

function CatView({ catId }: { catId: string }) {
  const query = useCat(catId);
  const t = useTranslate();
  if (query.error instanceof ApiError && query.error.status === 404) return <CatNotFound />;
  if (query.isError) {
    return (
      <div className="page">
        <p className="notice notice--error" role="alert">
          <Message
            id="cats.page.error"
            defaultMessage="Error: {reason}"
            values={{ reason: errorMessage(query.error) }}
          />
        </p>
      </div>
    );
  }
  if (!query.data) {
    return (
      <LoadingSkeleton
        label={t({ id: 'cats.page.loading', defaultMessage: 'Loading the cat...' })}
        className="cat-page"
      >
        <CatPageSkeleton />
      </LoadingSkeleton>
    );
  }
  // A profile merged into another: its address leads to the cat it is part of now.
  if (query.data._id !== catId.toLowerCase()) {
    return <Navigate to={`/cats/${encodeURIComponent(query.data._id)}`} replace />;
  }
  return <CatProfile cat={query.data} />;
}

function CatProfile({ cat }: { cat: Cat }) {
  const [dialog, setDialog] = useState<'edit' | 'merge' | 'demo' | 'report' | null>(null);
  const { userId } = useAuth();
  const t = useTranslate();
  // Issue 27: anyone but the cat's creator may report its page.
  const canReport = cat.createdBy?._id !== userId;
  const map = useCatMap(cat._id);
  // Issue 26, "Missing cats": the alert tops the page while the cat is missing.
  const missing = useMissingAlert(cat._id);
  const alert = missing.data ?? null;
  const demoRefused = () => setDialog('demo');
  const points = map.data?.points ?? [];
  const seen = cat.lastSeen;
  const lastSeenPoint: CatMapPoint | null =
    seen && seen.latitude !== null && seen.longitude !== null && seen.locationPrecision
      ? {
          postId: seen.postId,
          latitude: seen.latitude,
          longitude: seen.longitude,
          locationPrecision: seen.locationPrecision,
          at: seen.at,
        }
      : null;
  const placed = points.length > 0 || lastSeenPoint !== null;

  return (
    <div className={`cat-page${alert ? ' cat-page--missing' : ''}`} data-cat-id={cat._id}>
      <title>
        {t(
          { id: 'cats.page.documentTitle', defaultMessage: '{cat} · Neighbourhood Cats' },
          { cat: cat.name },
        )}
      </title>
      {alert && <MissingAlertPanel cat={cat} alert={alert} onDemoRefused={demoRefused} />}
      <div className="cat-page__cover">
        {cat.cover ? (
          <Link to={`/posts/${encodeURIComponent(cat.cover.postId)}`} className="cat-page__cover-link">
            <PostImage
              image={cat.cover.image}
              fallbackSrc={cat.cover.image.variants['800'] ?? ''}
              alt={
                cat.cover.altText ??
                t({ id: 'cats.page.coverAlt', defaultMessage: 'Photo of {cat}' }, { cat: cat.name })
              }
              sizes={COVER_SIZES}
              aspectRatio="4 / 3"
              eager
            />
          </Link>
        ) : (
          <div className="cat-page__no-cover">
            <PawIcon size={56} />
            <p>
              <Message id="cats.page.noCover" defaultMessage="No photo of this cat yet." />
            </p>
          </div>
        )}
      </div>

      <section className="cat-page__info" aria-labelledby="cat-name">
        <header className="cat-page__header">
          <h1 id="cat-name" className="cat-page__name">
            {cat.name}
          </h1>
          {cat.viewer.canEdit && (
            <span className="cat-page__tools">
              <Button variant="secondary" size="sm" onClick={() => setDialog('edit')}>
                <Message id="cats.page.edit" defaultMessage="Edit" />
              </Button>
              {!alert && missing.isSuccess && <MarkMissingButton cat={cat} onDemoRefused={demoRefused} />}
              <Button variant="ghost" size="sm" onClick={() => setDialog('merge')}>
                <Message id="cats.page.merge" defaultMessage="Merge a duplicate…" />
              </Button>
            </span>
          )}
          {canReport && (
            <Button
              variant="ghost"
              size="sm"
              className="cat-page__report"
              onClick={() => setDialog('report')}
            >
              <Message id="cats.page.report" defaultMessage="Report" />
            </Button>
          )}
        </header>
        <LastSeen cat={cat} />
        <FollowButton cat={cat} />
        <CatFacts cat={cat} />
        <CatHistory cat={cat} onDemoRefused={demoRefused} />
      </section>

      <section className="cat-page__map" aria-labelledby="cat-map-title">
        <h2 id="cat-map-title" className="cat-page__section-title">
          <Message id="cats.page.mapTitle" defaultMessage="Where this cat has been seen" />
        </h2>
        {map.isPending ? (
          <div className="cat-map cat-map--loading" aria-hidden="true" />
        ) : map.isError ? (
          <p className="notice notice--error" role="alert">
            <Message
              id="cats.page.error"
              defaultMessage="Error: {reason}"
              values={{ reason: errorMessage(map.error) }}
            />
          </p>
        ) : placed ? (
          <>
            <Suspense fallback={<div className="cat-map cat-map--loading" aria-hidden="true" />}>
              <SightingsMap points={points} lastSeen={lastSeenPoint} />
            </Suspense>
            <p className="cat-page__map-note">
              <Message
                id="cats.page.mapNote"
                defaultMessage="A dot marks an exact spot. A dashed circle marks an area of about 500 m: the exact spot is not shown to you. The last sighting is orange."
              />
            </p>
          </>
        ) : (
          <p className="cat-page__status">
            <Message
              id="cats.page.noPlace"
              defaultMessage="None of the sightings you can see shows a place."
            />
          </p>
        )}
      </section>

      <section className="cat-page__sightings" aria-labelledby="cat-sightings-title">
        <h2 id="cat-sightings-title" className="cat-page__section-title">
          <Message id="cats.page.sightingsTitle" defaultMessage="Sightings" />
        </h2>
        {cat.sightingCount > 0 && (
          <p className="cat-page__count">
            <Message
              id="cats.page.sightingCount"
              defaultMessage="{count, plural, one {One sighting in all.} other {# sightings in all.}}"
              values={{ count: cat.sightingCount }}
            />
          </p>
        )}
        <SightingsTimeline catId={cat._id} />
      </section>

      {dialog === 'edit' && (
        <EditCatDialog cat={cat} onClose={() => setDialog(null)} onDemoRefused={demoRefused} />
      )}
      {dialog === 'merge' && (
        <MergeCatDialog cat={cat} onClose={() => setDialog(null)} onDemoRefused={demoRefused} />
      )}
      {dialog === 'demo' && <DemoDisabledModal onClose={() => setDialog(null)} />}
      {dialog === 'report' && (
        <ReportDialog
          target={{ type: 'cat', id: cat._id }}
          owner={cat.createdBy}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

function CatNotFound() {
  const t = useTranslate();
  return (
    <div className="cat-page cat-page--gone">
      <title>
        {t({ id: 'cats.notFound.documentTitle', defaultMessage: 'Cat not found · Neighbourhood Cats' })}
      </title>
      <div className="cat-page__gone-card">
        <h1>
          <Message id="cats.notFound.title" defaultMessage="Cat not found" />
        </h1>
        <p>
          <Message
            id="cats.notFound.text"
            defaultMessage="There is no cat at this address, or it is not shown to you."
          />
        </p>
        <Link className={buttonClass('primary')} to="/feed">
          <Message id="cats.notFound.back" defaultMessage="Back to the feed" />
        </Link>
      </div>
    </div>
  );
}
