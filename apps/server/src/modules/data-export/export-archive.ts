import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { MISSING_REPORTS_MAX } from '@cats/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client.ts';
import type { MediaStorage } from '../../media/storage.ts';
import { PRIVATE_FILE_MODE } from '../../lib/private-files.ts';
import { variantKey } from '../../media/urls.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { isCaretaker } from '../cats/cats.repository.ts';
import { reportsOfAlert, usersVisibleTo } from '../cats/missing/missing-reports.repository.ts';
import { reportPlace } from '../cats/missing/missing.service.ts';
import * as repo from './data-export.repository.ts';
import * as moderation from '../moderation/appeals.repository.ts';

/** Rows read per query: memory stays flat however many posts, comments or likes a user has. */
const PAGE_SIZE = 200;
/** Images opened ahead of the one being zipped (one S3 GET or file handle each). */
const IMAGES_AHEAD = 4;
/** The largest variant: what the full-size viewer shows. */
const EXPORT_IMAGE_WIDTH = 1600;

/** A JSON array written a page at a time: `[`, the items, `]`. */
async function* jsonArray<Row extends { key: string }, Item>(
  fetchPage: (cursor: repo.ExportCursor | null) => Promise<Row[]>,
  cursorOf: (row: Row) => repo.ExportCursor,
  toItem: (row: Row) => Item,
): AsyncGenerator<string> {
  yield '[';
  let cursor: repo.ExportCursor | null = null;
  let first = true;
  for (;;) {
    const page = await fetchPage(cursor);
    for (const row of page) {
      yield `${first ? '\n  ' : ',\n  '}${JSON.stringify(toItem(row))}`;
      first = false;
    }
    if (page.length < PAGE_SIZE) break;
    cursor = cursorOf(page[page.length - 1]!);
  }
  yield first ? ']\n' : '\n]\n';
}

/**
 * README.txt, the archive's first entry: what each file holds, for the person who opens the zip. One
 * text, kept whole (it moves into the message catalogues with issue 28); data-export.test.ts checks
 * that it names every JSON file the archive holds.
 */
export const EXPORT_README = `Your data from Neighbourhood Cats
=================================

This archive holds everything you made in Neighbourhood Cats, as it was when you downloaded it.
The .json files are plain text (JSON); any text editor opens them. Times are in UTC (ISO 8601).
Places are latitude and longitude in degrees.

profile.json
  Your account: username, email address, when you joined, and your settings (your home area is
  stored as the centre of its ~500 m square, as the app keeps it).

posts.json
  Every picture you posted, including those in your trash: caption, cat name and cat, image
  description (alt text), the exact place it was taken and whether it is shown on the map, when
  it was posted, edited and deleted, its number of likes and the groups it is shared with.

images/
  Each picture, in the largest size the app keeps (1,600 pixels wide), named after its post.

comments.json
  Every comment you wrote, with the picture it is on.

likes.json
  Every picture you liked, and when.

groups.json
  The groups you belong to, your role in each, and when you joined.

cats.json
  The cats you care for (with their details and the home point you chose, if any), the cats you
  follow, and the cats you created but no longer care for.

missing-alerts.json
  The missing-cat alerts you raised: when and where the cat was last seen (exactly), your note and
  how you asked to be contacted, when the alert ended and why, and the reports neighbours sent you,
  placed as the app shows them to you.

missing-reports.json
  The 'I saw this cat' reports you sent, with the time and exact place you gave.

cat-suggestions-made.json
  The 'This is ...' suggestions you made on other people's pictures, and their answers.

cat-suggestions-received.json
  The suggestions other people made on your pictures, with their usernames and your answers.

cat-merges.json
  The cat profiles you merged, and whether you undid the merge.

reports.json
  What you reported to the moderators, why, and what they did about it.

moderation-decisions.json
  The moderators' decisions about your content or account (what, which rule, why, when), whether each
  was undone, and your appeals with their answers.

Other people's places appear here only as the app shows them to you. People you blocked, and
people who blocked you, are left out.
`;

/** Reports and decisions are read whole: REPORTS_PER_HOUR keeps a person's reports within this. */
const EXPORT_MODERATION_MAX = 100_000;

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const byCreation = (row: { key: string; id: string }): repo.ExportCursor => ({ key: row.key, id: row.id });
const imagePath = (postId: string) => `images/${postId}.webp`;

export interface ArchiveDeps {
  db: Executor;
  storage: MediaStorage;
  log: FastifyBaseLogger;
}

/**
 * Writes the user's data as a zip to `path`, streamed: JSON a page of rows at a time, images one stored
 * object at a time (at most IMAGES_AHEAD opened ahead), so memory does not grow with the number of posts.
 * Entries are stored, not deflated: WebP does not compress further and the JSON is small beside it.
 */
export async function writeExportArchive(
  deps: ArchiveDeps,
  userId: string,
  path: string,
  signal: AbortSignal,
): Promise<void> {
  const { db, storage } = deps;
  const profile = await repo.exportProfile(db, userId);
  if (!profile) throw new Error('user no longer exists');

  const zip = new ZipFile();
  const failed = new Promise<never>((_, reject) => zip.on('error', reject));
  const written = pipeline(zip.outputStream, createWriteStream(path, { mode: PRIVATE_FILE_MODE }));
  // Whichever fails first ends the export; the other's rejection is then ignored.
  const done = Promise.race([written, failed]);
  done.catch(() => {});

  const add = (name: string, content: () => AsyncIterable<string>) =>
    zip.addReadStreamLazy(name, { compress: true }, (cb) => cb(null, Readable.from(content())));

  add('README.txt', async function* () {
    yield EXPORT_README;
  });
  add('profile.json', async function* () {
    yield `${JSON.stringify(
      {
        id: profile.id,
        username: profile.username,
        email: profile.email,
        createdAt: iso(profile.createdAt),
        settings: {
          exactPublicLocation: profile.exactPublicLocation,
          // The home area of Settings (issue 26), as stored: the centre of a ~500 m cell.
          homeArea:
            profile.homeAreaLatitude !== null && profile.homeAreaLongitude !== null
              ? { latitude: profile.homeAreaLatitude, longitude: profile.homeAreaLongitude }
              : null,
        },
      },
      null,
      2,
    )}\n`;
  });
  add('posts.json', () =>
    jsonArray(
      (cursor) => repo.ownPostsPage(db, userId, cursor, PAGE_SIZE),
      (row) => ({ key: row.key, id: row.id }),
      (row) => ({
        id: row.id,
        caption: row.caption,
        catName: row.catName,
        catId: row.catId,
        altText: row.altText,
        // The owner's own exact position: theirs to take (docs/security.md, Locations).
        latitude: row.latitude,
        longitude: row.longitude,
        showLocation: row.showLocation,
        createdAt: iso(row.createdAt),
        editedAt: iso(row.editedAt),
        deletedAt: iso(row.deletedAt),
        likeCount: row.likeCount,
        sharedWithGroups: JSON.parse(row.groups) as { id: string; name: string }[],
        image: imagePath(row.id),
      }),
    ),
  );
  add('comments.json', () =>
    jsonArray(
      (cursor) => repo.ownCommentsPage(db, userId, cursor, PAGE_SIZE),
      (row) => ({ key: row.key, id: row.id }),
      (row) => ({ id: row.id, postId: row.postId, body: row.body, createdAt: iso(row.createdAt) }),
    ),
  );
  add('likes.json', () =>
    jsonArray(
      (cursor) => repo.ownLikesPage(db, userId, cursor, PAGE_SIZE),
      (row) => ({ key: row.key, id: row.postId }),
      (row) => ({ postId: row.postId, createdAt: iso(row.createdAt) }),
    ),
  );
  add('groups.json', async function* () {
    const rows = await repo.ownGroups(db, userId);
    const items = rows.map((g) => ({ id: g.id, name: g.name, role: g.role, joinedAt: iso(g.joinedAt) }));
    yield `${JSON.stringify(items, null, 2)}\n`;
  });

  add('cats.json', async function* () {
    const [caring, following, created] = await Promise.all([
      repo.caredForCats(db, userId),
      repo.followedCats(db, userId),
      repo.createdCatsNotCaredFor(db, userId),
    ]);
    const items = {
      caretakerOf: caring.map((c) => ({
        id: c.id,
        name: c.name,
        description: c.description,
        coatColours: c.coatColours,
        earTipped: c.earTipped,
        neutered: c.neutered,
        living: c.living,
        // The caretakers' own home point, theirs to take.
        home:
          c.homeLatitude !== null && c.homeLongitude !== null
            ? { latitude: c.homeLatitude, longitude: c.homeLongitude }
            : null,
        createdByYou: c.createdBy === userId,
        since: iso(c.since),
      })),
      following: following.map((c) => ({ id: c.id, name: c.name, since: iso(c.since) })),
      createdNoLongerCaredFor: created.map((c) => ({ id: c.id, name: c.name, createdAt: iso(c.createdAt) })),
    };
    yield `${JSON.stringify(items, null, 2)}\n`;
  });

  // Issue 26's other records. Another person appears by username at most, never by email, and rows
  // involving someone the user shares a block with are left out (a block leaves no trace).
  const viewer: AuthContext = { userId, isDemo: false };
  add('missing-alerts.json', () =>
    jsonArray(
      async (cursor) => {
        const page = await repo.raisedAlertsPage(db, userId, cursor, PAGE_SIZE);
        // The reports as the app lists them to a caretaker (missing.service.ts listReports): only while
        // the user still cares for the cat, through the same query, cap and placing. One alert at a time:
        // the job shares the pool with the requests.
        const rows = [];
        for (const row of page) {
          const caring = await isCaretaker(db, row.alert.catId, userId);
          const reports = caring ? await reportsOfAlert(db, row.alert, userId, MISSING_REPORTS_MAX) : [];
          const reporters = await usersVisibleTo(
            db,
            reports.map((r) => r.reporterId),
            userId,
          );
          rows.push({ ...row, id: row.alert.id, reports, reporters });
        }
        return rows;
      },
      byCreation,
      ({ alert, catName, reports, reporters }) => ({
        id: alert.id,
        cat: { id: alert.catId, name: catName },
        lastSeenAt: iso(alert.lastSeenAt),
        // The user's own alert: the place they gave, exactly (everyone else was shown its cell).
        lastSeenPlace: { latitude: alert.latitude, longitude: alert.longitude },
        note: alert.note,
        contact: alert.contact,
        createdAt: iso(alert.createdAt),
        expiresAt: iso(alert.expiresAt),
        endedAt: iso(alert.endedAt),
        endReason: alert.endReason,
        reports: reports.map((r) => ({
          id: r.id,
          kind: r.kind,
          reporter: reporters.get(r.reporterId)?.username ?? null,
          seenAt: iso(r.seenAt),
          place: reportPlace(viewer, r),
          note: r.note,
          postId: r.post ? r.id : null,
          createdAt: iso(r.createdAt),
        })),
      }),
    ),
  );
  add('missing-reports.json', () =>
    jsonArray(
      (cursor) => repo.ownReportsPage(db, userId, cursor, PAGE_SIZE),
      byCreation,
      (row) => ({
        id: row.id,
        alertId: row.alertId,
        cat: { id: row.catId, name: row.catName },
        seenAt: iso(row.seenAt),
        // The user's own report: the place they sent, exactly.
        place: { latitude: row.latitude, longitude: row.longitude },
        note: row.note,
        createdAt: iso(row.createdAt),
      }),
    ),
  );
  add('cat-suggestions-made.json', () =>
    jsonArray(
      (cursor) => repo.suggestionsMadePage(db, userId, cursor, PAGE_SIZE),
      byCreation,
      (row) => ({
        id: row.id,
        postId: row.postId,
        cat: { id: row.catId, name: row.catName },
        status: row.status,
        createdAt: iso(row.createdAt),
        answeredAt: iso(row.answeredAt),
      }),
    ),
  );
  add('cat-suggestions-received.json', () =>
    jsonArray(
      (cursor) => repo.suggestionsReceivedPage(db, userId, cursor, PAGE_SIZE),
      byCreation,
      (row) => ({
        id: row.id,
        postId: row.postId,
        cat: { id: row.catId, name: row.catName },
        suggestedBy: row.suggestedBy,
        status: row.status,
        createdAt: iso(row.createdAt),
        answeredAt: iso(row.answeredAt),
      }),
    ),
  );
  add('cat-merges.json', () =>
    jsonArray(
      (cursor) => repo.mergesPerformedPage(db, userId, cursor, PAGE_SIZE),
      byCreation,
      (row) => ({
        id: row.id,
        cat: { id: row.catId, name: row.catName },
        duplicateCat: { id: row.duplicateCatId, name: row.duplicateCatName },
        mergedAt: iso(row.mergedAt),
        undoneAt: iso(row.undoneAt),
        // Whoever else undid it is not named: they may be someone the user shares a block with.
        undoneByYou: row.undoneBy === userId,
      }),
    ),
  );

  // Moderation (issue 27): a person's reports and the decisions about them are few (reports are limited
  // to REPORTS_PER_HOUR), so each is one query; no moderator or reporter is named.
  add('reports.json', async function* () {
    const rows = await moderation.reportsBy(db, userId, EXPORT_MODERATION_MAX);
    yield `${JSON.stringify(
      rows.map((row) => ({
        id: row.id,
        targetType: row.targetType,
        targetId: row.targetId,
        reason: row.reason,
        note: row.note,
        createdAt: iso(row.createdAt),
        updatedAt: iso(row.updatedAt),
        resolvedAt: iso(row.resolvedAt),
        actionsTaken: row.outcomes,
      })),
      null,
      2,
    )}\n`;
  });
  add('moderation-decisions.json', async function* () {
    const rows = await moderation.decisionsAbout(db, userId, EXPORT_MODERATION_MAX);
    yield `${JSON.stringify(
      rows.map((row) => ({
        id: row.id,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        rule: row.rule,
        explanation: row.explanation,
        suspendDays: row.suspendDays,
        decidedAt: iso(row.createdAt),
        undone: row.reverted,
        appeal: row.appeal
          ? {
              text: row.appeal.body,
              sentAt: iso(row.appeal.createdAt),
              answeredAt: iso(row.appeal.decidedAt),
              outcome: row.appeal.outcome,
            }
          : null,
      })),
      null,
      2,
    )}\n`;
  });

  // Images: each entry is added once its object is open, and adding waits while IMAGES_AHEAD are queued.
  const opened = new Set<Readable>();
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  done.catch((err: unknown) => {
    failure = err;
    wake?.();
  });
  let cursor: repo.ExportCursor | null = null;
  let ended = false;
  try {
    for (;;) {
      const page = await repo.ownPostsPage(db, userId, cursor, PAGE_SIZE);
      for (const post of page) {
        while (opened.size >= IMAGES_AHEAD && !failure)
          await new Promise<void>((resolve) => (wake = resolve));
        if (failure) throw failure;
        signal.throwIfAborted();
        const object = await storage.get(variantKey(post.mediaKey, EXPORT_IMAGE_WIDTH));
        if (!object) {
          deps.log.warn({ postId: post.id, mediaKey: post.mediaKey }, 'export: image variant missing');
          continue;
        }
        opened.add(object.body);
        zip.addReadStreamLazy(imagePath(post.id), { compress: false }, (cb) => {
          opened.delete(object.body);
          wake?.();
          cb(null, object.body);
        });
      }
      if (page.length < PAGE_SIZE) break;
      cursor = { key: page[page.length - 1]!.key, id: page[page.length - 1]!.id };
    }
    zip.end();
    ended = true;
    await done;
  } finally {
    if (!ended) {
      for (const body of opened) body.destroy();
      (zip.outputStream as unknown as Readable).destroy();
    }
  }
}
