import {
  AVATAR_WIDTHS,
  DEMO_EMAIL,
  MISSING_ALERT_DAYS,
  DEMO_PASSWORD,
  DEMO_USER_ID,
  DEMO_USERNAME,
  IMAGE_WIDTHS,
} from '@cats/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { eq, inArray } from 'drizzle-orm';
import pLimit from 'p-limit';
import sharp from 'sharp';
import type { Database } from '../db/client.ts';
import {
  catCaretakers,
  catFollows,
  cats,
  comments,
  groupMembers,
  groups,
  joinRequests,
  likes,
  missingAlerts,
  missingReports,
  postGroups,
  posts,
  reports,
  users,
} from '../db/schema/index.ts';
import { approximateLocation } from '../modules/location/location-grid.ts';
import { generateCode } from '../modules/groups/groups.service.ts';
import { readGps, storeImageVariants } from '../media/image-pipeline.ts';
import type { MediaStorage } from '../media/storage.ts';
import { usernameSkeleton } from '../lib/confusables.ts';
import { hashPassword } from '../lib/passwords.ts';
import { catArtFor, catFaceSvg, catSvg, phoneExif } from './cat-art.ts';
import {
  SAMPLE_CATS,
  SAMPLE_COMMENTS,
  SAMPLE_GROUP,
  SAMPLE_GROUP_POSTS,
  SAMPLE_MISSING,
  SAMPLE_ADMIN_EMAIL,
  SAMPLE_PASSWORD,
  SAMPLE_POSTS,
  SAMPLE_REPORT,
  SAMPLE_USERS,
  sampleLikers,
  samplePostCoordinates,
  sampleSightings,
} from './sample-content.ts';

export interface SeedContext {
  db: Database;
  storage: MediaStorage;
  log: FastifyBaseLogger;
  /** Make SAMPLE_ADMIN_EMAIL an admin (issue 27): development only, never in production. */
  sampleAdmin?: boolean;
}

/** The shared demo account: a fixed id, so it can be recognised everywhere and seeded idempotently. */
export async function seedDemoUser({ db }: SeedContext): Promise<void> {
  await db
    .insert(users)
    .values({
      id: DEMO_USER_ID,
      username: DEMO_USERNAME,
      usernameSkeleton: usernameSkeleton(DEMO_USERNAME),
      email: DEMO_EMAIL,
      passwordHash: await hashPassword(DEMO_PASSWORD),
    })
    .onConflictDoNothing();
}

const HOUR = 60 * 60 * 1000;

/** A sample photo as a phone would upload it: an illustrated cat as JPEG with camera and GPS EXIF. */
export async function renderSamplePhoto(
  artIndex: number,
  takenAt: Date,
  coordinates: { latitude: number; longitude: number } | null,
): Promise<Buffer> {
  return sharp(Buffer.from(catSvg(catArtFor(artIndex), 800)))
    .jpeg({ quality: 86 })
    .withExif(phoneExif({ ...(coordinates ?? {}), takenAt }))
    .toBuffer();
}

/**
 * Sample users with profile pictures, and their posts with comments and likes. Images go through the
 * real upload pipeline (GPS read back from the photo's EXIF, WebP variants, placeholder), then every
 * row is inserted in one transaction: either the whole neighbourhood exists or none of it. Once any
 * sample user exists the content counts as seeded, so a restart renders nothing, duplicates nothing
 * and does not bring back what users deleted or unliked since.
 */
export async function seedSampleContent({
  db,
  storage,
  log,
  sampleAdmin = false,
}: SeedContext): Promise<void> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      inArray(
        users.id,
        SAMPLE_USERS.map((u) => u.id),
      ),
    )
    .limit(1);
  if (existing) return;

  const started = Date.now();
  const now = Date.now();
  const render = pLimit(2);
  const passwordHash = await hashPassword(SAMPLE_PASSWORD);

  const userRows = await Promise.all(
    SAMPLE_USERS.map((u) =>
      render(async () => {
        let profilePicKey: string | null = null;
        if (u.avatar !== null) {
          const png = await sharp(Buffer.from(catFaceSvg(catArtFor(u.avatar), 600)))
            .png()
            .toBuffer();
          const stored = await storeImageVariants(storage, png, {
            kind: 'avatars',
            widths: AVATAR_WIDTHS,
            square: true,
          });
          profilePicKey = stored.prefix;
        }
        return {
          id: u.id,
          username: u.username,
          usernameSkeleton: usernameSkeleton(u.username),
          email: u.email,
          passwordHash,
          profilePicKey,
          exactPublicLocation: u.exactPublicLocation,
          role: sampleAdmin && u.email === SAMPLE_ADMIN_EMAIL ? 'admin' : 'member',
          ...homeAreaColumns(homeAreaOf(u.id)),
          createdAt: new Date(now - 30 * 24 * HOUR),
        };
      }),
    ),
  );

  // The cats and who cares for and follows them; each post that is a sighting links to its cat, and
  // the newest sighting is the cover.
  const catOfPost = new Map(SAMPLE_CATS.flatMap((cat) => sampleSightings(cat).map((p) => [p.id, cat.id])));
  const catRows = SAMPLE_CATS.map((cat) => ({
    id: cat.id,
    name: cat.name,
    description: cat.description,
    coatColours: cat.coatColours,
    earTipped: cat.earTipped,
    neutered: cat.neutered,
    living: cat.living,
    createdBy: SAMPLE_USERS[cat.caretaker - 1]!.id,
    createdAt: new Date(now - 20 * 24 * HOUR),
    updatedAt: new Date(now - 20 * 24 * HOUR),
  }));
  const caretakerRows = SAMPLE_CATS.map((cat) => ({
    catId: cat.id,
    userId: SAMPLE_USERS[cat.caretaker - 1]!.id,
  }));
  const followRows = SAMPLE_CATS.flatMap((cat) =>
    cat.followers.map((n) => ({ catId: cat.id, userId: SAMPLE_USERS[n - 1]!.id })),
  );
  const covers = SAMPLE_CATS.map((cat) => ({
    catId: cat.id,
    postId: sampleSightings(cat).reduce((a, b) => (a.hoursAgo <= b.hoursAgo ? a : b)).id,
  }));

  const postRows = await Promise.all(
    SAMPLE_POSTS.map((post, index) =>
      render(async () => {
        const createdAt = new Date(now - post.hoursAgo * HOUR);
        const photo = await renderSamplePhoto(index, createdAt, samplePostCoordinates(post, index));
        const stored = await storeImageVariants(storage, photo, { kind: 'posts', widths: IMAGE_WIDTHS });
        const gps = await readGps(photo);
        return {
          id: post.id,
          userId: SAMPLE_USERS[post.author - 1]!.id,
          caption: post.caption,
          catName: post.catName,
          catId: catOfPost.get(post.id) ?? null,
          latitude: gps?.latitude ?? null,
          longitude: gps?.longitude ?? null,
          showLocation: gps !== null && post.showLocation,
          mediaKey: stored.prefix,
          width: stored.width,
          height: stored.height,
          placeholder: stored.placeholder,
          createdAt,
        };
      }),
    ),
  );

  const commentRows = SAMPLE_COMMENTS.map((c) => {
    const post = SAMPLE_POSTS[c.postIndex]!;
    return {
      id: c.id,
      postId: post.id,
      userId: SAMPLE_USERS[c.author - 1]!.id,
      body: c.body,
      createdAt: new Date(now - post.hoursAgo * HOUR + c.minutesAfter * 60_000),
    };
  });
  const likeRows = SAMPLE_POSTS.flatMap((post, i) =>
    sampleLikers(i, post.author).map((u) => ({ postId: post.id, userId: SAMPLE_USERS[u - 1]!.id })),
  );

  const sampleUserId = (n: number) => SAMPLE_USERS[n - 1]!.id;
  const groupRow = {
    id: SAMPLE_GROUP.id,
    name: SAMPLE_GROUP.name,
    code: generateCode(SAMPLE_GROUP.name),
    ownerId: sampleUserId(SAMPLE_GROUP.owner),
  };
  // The demo account is a member so that visitors can see what a group looks like; for locations it
  // stays a stranger (location-rule.ts) and it is not shown the join code (groups.service.ts).
  const memberRows = [
    { groupId: SAMPLE_GROUP.id, userId: sampleUserId(SAMPLE_GROUP.owner), role: 'owner' as const },
    ...[...SAMPLE_GROUP.members.map(sampleUserId), DEMO_USER_ID].map((id) => ({
      groupId: SAMPLE_GROUP.id,
      userId: id,
      role: 'member' as const,
    })),
  ];
  const requestRows = SAMPLE_GROUP.pending.map((n) => ({
    groupId: SAMPLE_GROUP.id,
    userId: sampleUserId(n),
  }));
  const sharedRows = SAMPLE_GROUP_POSTS.map((p) => ({
    postId: p.id,
    groupId: SAMPLE_GROUP.id,
    userId: sampleUserId(p.author),
    sharedAt: new Date(now - p.hoursAgo * HOUR),
  }));

  // Missing Luna (issue 26): raised two hours before the first start, with a neighbour's report.
  const missingCat = SAMPLE_CATS.find((c) => c.name === SAMPLE_MISSING.catName)!;
  const lastSeenAt = new Date(now - SAMPLE_MISSING.hoursAgo * HOUR);
  const lastSeenCell = approximateLocation(
    SAMPLE_MISSING.lastSeen.latitude,
    SAMPLE_MISSING.lastSeen.longitude,
  );
  const alertRow = {
    id: SAMPLE_MISSING.id,
    catId: missingCat.id,
    raisedBy: sampleUserId(missingCat.caretaker),
    lastSeenAt,
    ...SAMPLE_MISSING.lastSeen,
    areaLatitude: lastSeenCell.latitude,
    areaLongitude: lastSeenCell.longitude,
    note: SAMPLE_MISSING.note,
    contact: SAMPLE_MISSING.contact,
    createdAt: new Date(lastSeenAt.getTime() + 15 * 60_000),
    expiresAt: new Date(now + MISSING_ALERT_DAYS * 24 * HOUR),
  };
  const reportRow = {
    id: SAMPLE_MISSING.report.id,
    alertId: SAMPLE_MISSING.id,
    reporterId: sampleUserId(SAMPLE_MISSING.report.author),
    seenAt: new Date(now - SAMPLE_MISSING.report.minutesAgo * 60_000),
    ...SAMPLE_MISSING.report.place,
    note: SAMPLE_MISSING.report.note,
    createdAt: new Date(now - (SAMPLE_MISSING.report.minutesAgo - 5) * 60_000),
  };

  // The moderation queue's sample (issue 27): the reported post as it was, as the reports module keeps it.
  const reportedPost = SAMPLE_POSTS[SAMPLE_REPORT.postIndex]!;
  const reportedRow = postRows[SAMPLE_REPORT.postIndex]!;
  const sampleReportRow = {
    id: SAMPLE_REPORT.id,
    reporterId: sampleUserId(SAMPLE_REPORT.reporter),
    targetType: 'post',
    targetId: reportedPost.id,
    targetUserId: sampleUserId(reportedPost.author),
    reason: SAMPLE_REPORT.reason,
    note: SAMPLE_REPORT.note,
    snapshot: {
      caption: reportedRow.caption,
      catName: reportedRow.catName,
      mediaKey: reportedRow.mediaKey,
      username: SAMPLE_USERS[reportedPost.author - 1]!.username,
    },
    createdAt: new Date(now - SAMPLE_REPORT.hoursAgo * HOUR),
    updatedAt: new Date(now - SAMPLE_REPORT.hoursAgo * HOUR),
  };

  try {
    await db.transaction(async (tx) => {
      await tx.insert(users).values(userRows);
      await tx.insert(cats).values(catRows);
      await tx.insert(catCaretakers).values(caretakerRows);
      await tx.insert(catFollows).values(followRows);
      await tx.insert(posts).values(postRows);
      for (const { catId, postId } of covers)
        await tx.update(cats).set({ coverPostId: postId }).where(eq(cats.id, catId));
      await tx.insert(comments).values(commentRows);
      await tx.insert(likes).values(likeRows);
      await tx.insert(groups).values(groupRow);
      await tx.insert(groupMembers).values(memberRows);
      await tx.insert(joinRequests).values(requestRows);
      await tx.insert(postGroups).values(sharedRows);
      // Home areas before the alert: its trigger tells the neighbours (the demo account among them).
      await tx
        .update(users)
        .set(homeAreaColumns(SAMPLE_MISSING.homeAreas.demo))
        .where(eq(users.id, DEMO_USER_ID));
      await tx.insert(missingAlerts).values(alertRow);
      await tx.insert(missingReports).values(reportRow);
      await tx.insert(reports).values(sampleReportRow);
    });
  } catch (err) {
    // E.g. someone registered a sample username before the first seed: the app still starts, without
    // sample content; the images written above are swept as orphans on a later start.
    log?.warn({ err }, 'sample content not seeded');
    return;
  }
  log?.info(
    {
      users: userRows.length,
      posts: postRows.length,
      cats: catRows.length,
      comments: commentRows.length,
      likes: likeRows.length,
      groupPosts: sharedRows.length,
      missingCats: 1,
      ms: Date.now() - started,
    },
    'seeded sample content',
  );
}

/** A sample user's home area (issue 26), or null. */
function homeAreaOf(userId: string): { latitude: number; longitude: number } | null {
  const entry = SAMPLE_MISSING.homeAreas.users.find(([n]) => SAMPLE_USERS[n - 1]!.id === userId);
  return entry ? entry[1] : null;
}

/** As Settings stores a home area: the centre of its ~500 m cell. */
function homeAreaColumns(point: { latitude: number; longitude: number } | null) {
  const cell = point ? approximateLocation(point.latitude, point.longitude) : null;
  return { homeAreaLatitude: cell?.latitude ?? null, homeAreaLongitude: cell?.longitude ?? null };
}

/** First-start content. Idempotent: a restart never duplicates anything. */
export async function seed(ctx: SeedContext): Promise<void> {
  await seedDemoUser(ctx);
  await seedSampleContent(ctx);
}
