import {
  CAT_MESSAGES,
  MISSING_ALERT_DAYS,
  MISSING_ALERTS_PER_ACCOUNT,
  MISSING_MAP_LIMIT,
  MISSING_MESSAGES,
  MISSING_NEAR_LIMIT,
  MISSING_NEAR_METRES,
  MISSING_REPORTS_MAX,
  type MissingAlert,
  type MapViewport,
  type MissingContactPreference,
  type MissingMapResponse,
  type MissingNearResponse,
  type MissingReport,
  type ShownPlace,
  tooManyAlertsTodayMessage,
} from '@cats/contracts';
import type { Database, Executor } from '../../../db/client.ts';
import { violatesConstraint } from '../../../lib/db-errors.ts';
import { badRequest, conflict, forbidden, notFound, RateLimitError } from '../../../lib/http-errors.ts';
import { toUserSummary } from '../../visibility/user-summary.ts';
import type { AuthContext } from '../../../plugins/auth.ts';
import { AreaTooLargeError, checkViewportSize, longitudeRanges } from '../../explore/map-index.ts';
import { approximateLocation } from '../../location/location-grid.ts';
import { locationFor } from '../../location/location-rule.ts';
import { imageVariantUrls } from '../../posts/post-view.ts';
import * as cats from '../cats.repository.ts';
import * as repo from './missing.repository.ts';
import * as reports from './missing-reports.repository.ts';
import { DAY_MS } from '../../../lib/durations.ts';

/** One open alert per cat (missing_alerts_open_cat_idx): a second raise at the same moment loses here. */
const OPEN_ALERT_INDEX = 'missing_alerts_open_cat_idx';

export interface MissingDeps {
  db: Database;
  publicBase: string | undefined;
  /** MISSING_ALERTS_PER_DAY: alerts one account may raise in 24 hours. */
  alertsPerDay: number;
}

type Point = { latitude: number; longitude: number };

/** The cat or 404 (unknown and malformed ids alike); a merged cat's id stands for the cat it joined. */
async function requireCat(db: Executor, catId: string, lock = false) {
  const cat = await cats.findLiveCat(db, catId, lock ? 'update' : undefined);
  if (!cat) throw notFound(CAT_MESSAGES.notFound);
  return cat;
}

/** The cat for one of its caretakers: 404 when unknown, 403 for anyone else (the demo account included). */
async function requireCaretaker(db: Executor, viewer: AuthContext, catId: string, lock = false) {
  const cat = await requireCat(db, catId, lock);
  if (viewer.isDemo || !(await cats.isCaretaker(db, cat.id, viewer.userId)))
    throw forbidden(MISSING_MESSAGES.notCaretaker);
  return cat;
}

/**
 * The last-seen place as this viewer may see it. Caretakers placed it: exact. Everyone else, the demo
 * account included, sees the centre of its ~500 m cell (docs/security.md, "Missing cats"): the place
 * is published to get help, and a cat is often lost near its home.
 */
function placeFor(viewer: AuthContext, alert: repo.AlertRow): ShownPlace {
  if (alert.viewerIsCaretaker && !viewer.isDemo)
    return { latitude: alert.latitude, longitude: alert.longitude, locationPrecision: 'exact' };
  return { latitude: alert.areaLatitude, longitude: alert.areaLongitude, locationPrecision: 'approximate' };
}

/** An alert as the viewer sees it, with its cat's picture and its raiser (as the viewer may see them). */
function toAlertView(deps: MissingDeps, viewer: AuthContext, row: repo.AlertViewRow): MissingAlert {
  const cover = row.cover;
  return {
    _id: row.id,
    cat: {
      _id: row.catId,
      name: row.catName,
      cover: cover
        ? {
            postId: cover.postId,
            image: {
              width: cover.width,
              height: cover.height,
              placeholder: cover.placeholder,
              variants: imageVariantUrls(deps.publicBase, cover.mediaKey),
            },
            altText: cover.altText,
          }
        : null,
    },
    lastSeenAt: row.lastSeenAt.toISOString(),
    place: placeFor(viewer, row),
    note: row.note,
    contact: row.contact as MissingContactPreference,
    raisedBy: row.raiser ? toUserSummary(viewer, row.raiser, deps.publicBase) : null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    viewer: { isCaretaker: row.viewerIsCaretaker && !viewer.isDemo, canReport: !viewer.isDemo },
  };
}

/** One alert as the viewer sees it: its cat's picture and the raiser they may see, looked up. */
async function alertView(deps: MissingDeps, viewer: AuthContext, row: repo.AlertRow): Promise<MissingAlert> {
  const [covers, raisers] = await Promise.all([
    repo.coversFor(deps.db, [row.catId], viewer.userId),
    reports.usersVisibleTo(deps.db, row.raisedBy ? [row.raisedBy] : [], viewer.userId),
  ]);
  return toAlertView(deps, viewer, {
    ...row,
    cover: covers.get(row.catId) ?? null,
    raiser: (row.raisedBy && raisers.get(row.raisedBy)) || null,
  });
}

async function shownAlert(deps: MissingDeps, viewer: AuthContext, catId: string): Promise<MissingAlert> {
  const row = await repo.shownAlertOfCat(deps.db, catId, viewer.userId);
  if (!row) throw notFound(MISSING_MESSAGES.notMissing);
  return alertView(deps, viewer, row);
}

/** The cat's alert as the viewer may see it, or null when it is not missing (to them). */
export async function getAlert(
  deps: MissingDeps,
  viewer: AuthContext,
  catId: string,
): Promise<MissingAlert | null> {
  const cat = await requireCat(deps.db, catId);
  const row = await repo.shownAlertOfCat(deps.db, cat.id, viewer.userId);
  return row ? alertView(deps, viewer, row) : null;
}

/**
 * Missing cats around a place: `near`, else the viewer's area, which is the home area chosen in
 * Settings, else where their newest located post was taken (as its cell: the same area for every post
 * of that cell). Without either the list is empty.
 */
export async function missingNear(
  deps: MissingDeps,
  viewer: AuthContext,
  near: Point | undefined,
  limit: number = MISSING_NEAR_LIMIT,
): Promise<MissingNearResponse> {
  let area: Point | null = near ?? null;
  let source: MissingNearResponse['area'] = near ? 'near' : null;
  if (!area) {
    const known = await repo.viewerArea(deps.db, viewer.userId);
    if (known.home) {
      area = known.home;
      source = 'home';
    } else if (known.post) {
      // The cell, as everyone's area is: the same list for every post of that cell.
      area = approximateLocation(known.post.latitude, known.post.longitude);
      source = 'posts';
    }
  }
  if (!area) return { alerts: [], total: 0, area: null };
  const { rows, total } = await repo.shownAlertsNear(
    deps.db,
    viewer.userId,
    area,
    MISSING_NEAR_METRES,
    limit,
  );
  return { alerts: rows.map((row) => toAlertView(deps, viewer, row)), total, area: source };
}

/**
 * Explore's missing-cat pins for the map's viewport (the same bounds and size limit as its post markers):
 * the shown alerts whose last-seen cell lies in it, placed as the near list places them, those whose
 * cell is nearest the viewport's centre first, at most MISSING_MAP_LIMIT; `truncated` when more lie in it.
 */
export async function missingOnMap(
  deps: MissingDeps,
  viewer: AuthContext,
  viewport: MapViewport,
): Promise<MissingMapResponse> {
  try {
    checkViewportSize(viewport);
  } catch (err) {
    if (err instanceof AreaTooLargeError) throw badRequest(MISSING_MESSAGES.areaTooLarge);
    throw err;
  }
  const longitudes = longitudeRanges(viewport.west, viewport.east);
  const span =
    viewport.east >= viewport.west ? viewport.east - viewport.west : viewport.east + 360 - viewport.west;
  const middle = viewport.west + Math.min(span, 360) / 2;
  const centre = {
    latitude: (viewport.south + viewport.north) / 2,
    longitude: ((((middle + 180) % 360) + 360) % 360) - 180,
  };
  // One more than is shown, to know whether more lie in the viewport.
  const rows = await repo.shownAlertsInBox(
    deps.db,
    viewer.userId,
    { south: viewport.south, north: viewport.north, longitudes },
    centre,
    MISSING_MAP_LIMIT + 1,
  );
  return {
    alerts: rows.slice(0, MISSING_MAP_LIMIT).map((row) => toAlertView(deps, viewer, row)),
    truncated: rows.length > MISSING_MAP_LIMIT,
  };
}

export interface MarkMissing {
  lastSeenAt: string;
  place: Point;
  note?: string | undefined;
  contact: MissingContactPreference;
}

/**
 * A caretaker marks the cat missing. In one transaction, under the cat's row lock and the account's
 * alert lock: an alert of this cat that lapsed unrenewed is ended first; an alert still up is a 409;
 * so is a fourth open alert of the account; an alert beyond the account's MISSING_ALERTS_PER_DAY in
 * 24 hours is a 429 (issue 46: each one tells the neighbours; counted in the database, so the limit
 * holds across instances). The place is stored with its cell, which is what anyone but the caretakers
 * is shown and what the near list goes by.
 */
export async function markMissing(
  deps: MissingDeps,
  viewer: AuthContext,
  catId: string,
  body: MarkMissing,
): Promise<MissingAlert> {
  const id = await deps.db
    .transaction(async (tx) => {
      const cat = await requireCaretaker(tx, viewer, catId, true);
      await repo.lockAccountAlerts(tx, viewer.userId);
      const open = await repo.openAlertOfCat(tx, cat.id, true);
      if (open && open.expiresAt.getTime() > Date.now()) throw conflict(MISSING_MESSAGES.alreadyMissing);
      if ((await repo.countActiveAlertsRaisedBy(tx, viewer.userId)) >= MISSING_ALERTS_PER_ACCOUNT)
        throw conflict(MISSING_MESSAGES.tooManyAlerts);
      const today = await repo.alertsRaisedToday(tx, viewer.userId);
      if (today.count >= deps.alertsPerDay) {
        // Named for the metrics' refusal counter (modules/metrics).
        throw new RateLimitError('missing_alerts', tooManyAlertsTodayMessage(deps.alertsPerDay), {
          'retry-after': String(Math.max(1, today.secondsToWait)),
        });
      }
      if (open) await repo.endAlert(tx, open.id, 'lapsed', null);
      const area = approximateLocation(body.place.latitude, body.place.longitude);
      const row = await repo.insertAlert(tx, {
        catId: cat.id,
        raisedBy: viewer.userId,
        // A time a few minutes ahead (another clock) is taken as now.
        lastSeenAt: new Date(Math.min(Date.parse(body.lastSeenAt), Date.now())),
        latitude: body.place.latitude,
        longitude: body.place.longitude,
        areaLatitude: area.latitude,
        areaLongitude: area.longitude,
        note: body.note ?? '',
        contact: body.contact,
        expiresAt: new Date(Date.now() + MISSING_ALERT_DAYS * DAY_MS),
      });
      return row.catId;
    })
    .catch((err: unknown) => {
      if (violatesConstraint(err, OPEN_ALERT_INDEX)) throw conflict(MISSING_MESSAGES.alreadyMissing);
      throw err;
    });
  return shownAlert(deps, viewer, id);
}

/**
 * A caretaker renews the open alert: it runs MISSING_ALERT_DAYS from now. One that had lapsed counts
 * again against its raiser's open alerts, so renewing cannot make a fourth.
 */
export async function renewAlert(
  deps: MissingDeps,
  viewer: AuthContext,
  catId: string,
): Promise<MissingAlert> {
  const id = await deps.db.transaction(async (tx) => {
    const cat = await requireCaretaker(tx, viewer, catId, true);
    const open = await repo.openAlertOfCat(tx, cat.id, true);
    if (!open) throw notFound(MISSING_MESSAGES.notMissing);
    if (open.expiresAt.getTime() <= Date.now() && open.raisedBy) {
      await repo.lockAccountAlerts(tx, open.raisedBy);
      if ((await repo.countActiveAlertsRaisedBy(tx, open.raisedBy, open.id)) >= MISSING_ALERTS_PER_ACCOUNT)
        throw conflict(MISSING_MESSAGES.tooManyAlerts);
    }
    await repo.renewAlert(tx, open.id, MISSING_ALERT_DAYS);
    return cat.id;
  });
  return shownAlert(deps, viewer, id);
}

/** 'Back home!': a caretaker ends the open alert; the found trigger tells everyone who was told. */
export async function markFound(deps: MissingDeps, viewer: AuthContext, catId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const cat = await requireCaretaker(tx, viewer, catId, true);
    const open = await repo.openAlertOfCat(tx, cat.id, true);
    if (!open) throw notFound(MISSING_MESSAGES.notMissing);
    await repo.endAlert(tx, open.id, 'found', viewer.userId);
  });
}

export interface ReportSighting {
  seenAt: string;
  place: Point;
  note?: string | undefined;
}

/**
 * 'I saw this cat' without a photo, by anyone who is shown the alert (not the demo account: refused by
 * the route). A cat that is not missing to them is a 404, as for a cat with no alert.
 */
export async function reportSighting(
  deps: MissingDeps,
  viewer: AuthContext,
  catId: string,
  body: ReportSighting,
): Promise<MissingReport> {
  const cat = await requireCat(deps.db, catId);
  const report = await deps.db.transaction(async (tx) => {
    const alert = await repo.shownAlertOfCat(tx, cat.id, viewer.userId);
    if (!alert) throw notFound(MISSING_MESSAGES.notMissing);
    return reports.insertReport(tx, {
      alertId: alert.id,
      reporterId: viewer.userId,
      seenAt: new Date(Math.min(Date.parse(body.seenAt), Date.now())),
      latitude: body.place.latitude,
      longitude: body.place.longitude,
      note: body.note ?? '',
    });
  });
  const [me] = [...(await reports.usersVisibleTo(deps.db, [viewer.userId], viewer.userId)).values()];
  // The reporter is answered with what they sent: the place is theirs.
  return {
    _id: report.id,
    kind: 'sighting',
    reporter: me ? toUserSummary(viewer, me, deps.publicBase) : null,
    seenAt: report.seenAt.toISOString(),
    place: { latitude: report.latitude, longitude: report.longitude, locationPrecision: 'exact' },
    note: report.note,
    post: null,
    createdAt: report.createdAt.toISOString(),
  };
}

/**
 * Where a caretaker is shown a report of their alert (the list below, and their data export): one sent
 * to them exactly (the reporter sent the place to them), a photo as its post places it for them.
 */
export function reportPlace(viewer: AuthContext, row: reports.ReportRow): ShownPlace | null {
  if (row.post) {
    const shown = locationFor(viewer, { ...row.post, userId: row.reporterId, ...coordinates(row) });
    if (shown.latitude === null || shown.longitude === null || !shown.locationPrecision) return null;
    return {
      latitude: shown.latitude,
      longitude: shown.longitude,
      locationPrecision: shown.locationPrecision,
    };
  }
  if (row.latitude === null || row.longitude === null) return null;
  return { latitude: row.latitude, longitude: row.longitude, locationPrecision: 'exact' };
}

/**
 * Every report of the cat's newest alert, for its caretakers: the ones sent to them exactly placed (the
 * reporter sent the place to them), the photos as their posts place them for the caretaker.
 */
export async function listReports(
  deps: MissingDeps,
  viewer: AuthContext,
  catId: string,
): Promise<{ reports: MissingReport[] }> {
  const cat = await requireCaretaker(deps.db, viewer, catId);
  const alert = await repo.latestAlertOfCat(deps.db, cat.id);
  if (!alert) return { reports: [] };
  const rows = await reports.reportsOfAlert(deps.db, alert, viewer.userId, MISSING_REPORTS_MAX);
  const reporters = await reports.usersVisibleTo(
    deps.db,
    rows.map((r) => r.reporterId),
    viewer.userId,
  );
  return {
    reports: rows.map((row) => {
      const reporter = reporters.get(row.reporterId);
      const place = reportPlace(viewer, row);
      return {
        _id: row.id,
        kind: row.kind,
        reporter: reporter ? toUserSummary(viewer, reporter, deps.publicBase) : null,
        seenAt: row.seenAt.toISOString(),
        place,
        note: row.note,
        post: row.post
          ? {
              _id: row.id,
              image: {
                width: row.post.width,
                height: row.post.height,
                placeholder: row.post.placeholder,
                variants: imageVariantUrls(deps.publicBase, row.post.mediaKey),
              },
              altText: row.post.altText,
            }
          : null,
        createdAt: row.createdAt.toISOString(),
      };
    }),
  };
}

const coordinates = (row: reports.ReportRow) => ({ latitude: row.latitude, longitude: row.longitude });
