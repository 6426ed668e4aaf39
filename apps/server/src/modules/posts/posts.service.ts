import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  CAT_MESSAGES,
  IDEMPOTENCY_MESSAGES,
  IMAGE_WIDTHS,
  createPostFieldsSchema,
  isUuid,
  latitudeSchema,
  parseDecimal,
  longitudeSchema,
  type Post,
  type PostDetail,
} from '@cats/contracts';
import type { Database } from '../../db/client.ts';
import { HttpError, badRequest, notFound } from '../../lib/http-errors.ts';
import { byteLength, type ImageSource, readGps, storeImageVariants } from '../../media/image-pipeline.ts';
import type { MediaStorage } from '../../media/storage.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { getPostView } from './post-view.ts';
import { POST_CAT_FK, SHARE_NEEDS_MEMBERSHIP, violatesConstraint } from '../../lib/db-errors.ts';
import type { EventBus } from '../../events/events.ts';
import { insertPost, shareWithMemberGroups, type NewPost } from './post-creation.repository.ts';
import { claimKey, findKeyedPost } from './idempotency-keys.repository.ts';

export const POST_CREATED_MESSAGE = 'Post created';
export const POST_NOT_FOUND_MESSAGE = 'Post not found';
export const FILE_REQUIRED_MESSAGE = 'Please add a photo';
export const GROUP_IDS_MESSAGE = 'groupIds must be a JSON array of group ids';

/**
 * Which cat a new post may be linked to is the cats module's rule, and cats builds on posts (its
 * sightings are posts): app.ts hands the rule in (docs/architecture.md, issue 47).
 */
export interface CatLinks {
  /** The cat's id when the viewer may link a new post to it; throws its refusal (404) otherwise. */
  catForNewPost(db: Database, viewer: AuthContext, catId: string): Promise<string>;
}

export interface PostsDeps {
  db: Database;
  storage: MediaStorage;
  publicBase: string | undefined;
  catLinks: CatLinks;
  /** A share with groups is told to their members through an event (notifications subscribes). */
  events: EventBus;
}

type Coordinates = { latitude: number; longitude: number };

/**
 * A form value as a number: plain decimals only (`0x10` is no 16). Anything else, including what
 * FormData makes of a missing value ('', 'undefined', 'null'), is no number.
 */
function numberField(value: string | undefined): number | null {
  return value === undefined ? null : parseDecimal(value);
}

function inRange(latitude: number, longitude: number): Coordinates | null {
  return latitudeSchema.safeParse(latitude).success && longitudeSchema.safeParse(longitude).success
    ? { latitude, longitude }
    : null;
}

/**
 * The client sends what it read from EXIF; when it sent no pair of numbers, the photo's own GPS is
 * used. Coordinates outside -90..90 / -180..180 mean no location at all.
 */
export async function resolveCoordinates(
  fields: { latitude?: string | undefined; longitude?: string | undefined },
  file: ImageSource,
): Promise<Coordinates | null> {
  const latitude = numberField(fields.latitude);
  const longitude = numberField(fields.longitude);
  if (latitude !== null && longitude !== null) return inRange(latitude, longitude);
  return readGps(file);
}

const parseBoolean = (value: string | undefined) =>
  value !== undefined && ['true', '1', 'on', 'yes'].includes(value.trim().toLowerCase());

function parseGroupIds(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw badRequest(GROUP_IDS_MESSAGE);
  }
  if (!Array.isArray(parsed) || !parsed.every((id) => typeof id === 'string')) {
    throw badRequest(GROUP_IDS_MESSAGE);
  }
  // Unknown or malformed ids are simply not groups the user belongs to.
  return [...new Set(parsed.filter(isUuid).map((id) => id.toLowerCase()))].slice(0, 100);
}

/** exifData is kept only when it is JSON (it is never served: it may hold GPS). */
function parseExifData(value: string | undefined): string | null {
  if (!value) return null;
  try {
    JSON.parse(value);
    return value;
  } catch {
    return null;
  }
}

/** Thrown inside the insert's transaction to roll it back: another request with the key committed first. */
class KeyTaken extends Error {}

/**
 * The post an earlier request with this key made, as the viewer sees it now (edits and likes included:
 * a replay answers with the post, not a stored copy of the first answer). A deleted or hidden post is a
 * 409: making it again would bring back what its author deleted.
 */
async function keyedPost(
  deps: PostsDeps,
  viewer: AuthContext,
  key: string,
  requestHash: () => Promise<string>,
): Promise<Post | null> {
  const found = await findKeyedPost(deps.db, viewer.userId, key);
  if (!found) return null;
  // Another picture under a used key is a client's mistake, not a retry: answering with the first post
  // would silently lose this one (the IETF Idempotency-Key draft's 422).
  if (found.requestHash !== null && found.requestHash !== (await requestHash()))
    throw new HttpError(422, IDEMPOTENCY_MESSAGES.mismatch);
  if (found.trashed) throw new HttpError(409, IDEMPOTENCY_MESSAGES.trashed);
  const post = await getPostView(deps.db, viewer, found.postId, { publicBase: deps.publicBase });
  if (!post) throw new HttpError(409, IDEMPOTENCY_MESSAGES.unavailable);
  return post;
}

/**
 * SHA-256 of what a createPost request sends: the picture's bytes and its fields, in key order (a form's
 * field order is the client's choice). Only compared with itself, for one user's one key.
 */
async function hashRequest(file: ImageSource | null, fields: Record<string, string>): Promise<string> {
  const hash = createHash('sha256');
  if (file) {
    if (Buffer.isBuffer(file)) hash.update(file);
    else for await (const chunk of createReadStream(file.path)) hash.update(chunk as Buffer);
  }
  hash.update('\0');
  hash.update(
    JSON.stringify(
      Object.keys(fields)
        .sort()
        .map((name) => [name, fields[name]]),
    ),
  );
  return hash.digest('hex');
}

/**
 * A header value as the key: the IETF draft sends it as a structured-field string ("..."), Stripe's
 * clients bare; both name the same key.
 */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return header.length >= 3 && header.startsWith('"') && header.endsWith('"') ? header.slice(1, -1) : header;
}

/**
 * Spot a cat. Order keeps rows and files in step: validate the fields, check and store the image
 * variants, then insert the row (with its group shares) in one transaction; if the row fails, the
 * just-written files (under a prefix of their own) go again.
 *
 * With an idempotency key (issue 28), a key this user already used within 24 hours answers with that
 * post and stores nothing (`replayed`). Two requests with one key racing each other both store their
 * files; the key's primary key lets one transaction commit, and the other deletes its files and answers
 * with the winner's post, so the client sees one post whichever answer reaches it.
 */
export async function createPost(
  deps: PostsDeps,
  viewer: AuthContext,
  file: ImageSource | null,
  rawFields: Record<string, string>,
  idempotencyKey?: string,
): Promise<{ post: Post; replayed: boolean }> {
  // Computed once, and only when a key is sent: a read of the whole picture.
  let hashed: Promise<string> | undefined;
  const requestHash = () => (hashed ??= hashRequest(file, rawFields));
  if (idempotencyKey !== undefined) {
    const earlier = await keyedPost(deps, viewer, idempotencyKey, requestHash);
    if (earlier) return { post: earlier, replayed: true };
  }
  const parsed = createPostFieldsSchema.safeParse(rawFields);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid post');
  const fields = parsed.data;
  if (!file || byteLength(file) === 0) throw badRequest(FILE_REQUIRED_MESSAGE);
  const requestedGroups = parseGroupIds(fields.groupIds);
  // Before any file is stored: an unknown cat is refused with nothing written (issue 26).
  const catId =
    fields.catId === undefined ? null : await deps.catLinks.catForNewPost(deps.db, viewer, fields.catId);

  const stored = await storeImageVariants(deps.storage, file, { kind: 'posts', widths: IMAGE_WIDTHS });
  const coordinates = await resolveCoordinates(fields, file);

  const values: NewPost = {
    userId: viewer.userId,
    caption: fields.comment ?? '',
    catName: fields.catName ? fields.catName : null,
    altText: fields.altText ? fields.altText : null,
    latitude: coordinates?.latitude ?? null,
    longitude: coordinates?.longitude ?? null,
    // Location counts only with both coordinates (spec section 4).
    showLocation: coordinates !== null && parseBoolean(fields.showLocation),
    mediaKey: stored.prefix,
    width: stored.width,
    height: stored.height,
    placeholder: stored.placeholder,
    exifData: parseExifData(fields.exifData),
    catId,
  };
  // The key and this request's hash, claimed with the post (the hash is the one computed above).
  const claim = idempotencyKey === undefined ? null : { key: idempotencyKey, hash: await requestHash() };
  const insert = () =>
    deps.db.transaction(async (tx) => {
      const row = await insertPost(tx, values);
      // Before the shares and their notifications: a taken key rolls back everything at once.
      if (claim && !(await claimKey(tx, viewer.userId, claim.key, row.id, claim.hash))) throw new KeyTaken();
      await shareWithMemberGroups(tx, row.id, viewer.userId, requestedGroups);
      // The other members of those groups are told in the same transaction (issue 25).
      await deps.events.emit('post.shared', {
        tx,
        postId: row.id,
        authorId: viewer.userId,
        groupIds: requestedGroups,
      });
      return row.id;
    });

  let postId: string;
  try {
    // A removal from one of the groups that commits while the share is written fails the share's
    // foreign key; once more, the removed group is simply left out, as for any group one is not in.
    postId = await insert().catch((err: unknown) => {
      if (violatesConstraint(err, SHARE_NEEDS_MEMBERSHIP)) return insert();
      throw err;
    });
  } catch (err) {
    // The prefix is new and this post's alone (newMediaPrefix): no other row can point at it.
    await deps.storage.deletePrefix(stored.prefix).catch(() => {});
    if (err instanceof KeyTaken && idempotencyKey !== undefined) {
      const winner = await keyedPost(deps, viewer, idempotencyKey, requestHash);
      if (winner) return { post: winner, replayed: true };
      // Taken and gone in between (only its user's deletion does that): the client may simply retry.
      throw new HttpError(409, IDEMPOTENCY_MESSAGES.unavailable);
    }
    // The cat went meanwhile (its last caretaker's account was deleted): as unknown as it now is.
    if (violatesConstraint(err, POST_CAT_FK)) throw notFound(CAT_MESSAGES.notFound);
    throw err;
  }

  const post = await getPostView(deps.db, viewer, postId, { publicBase: deps.publicBase });
  if (!post) throw new Error('The new post could not be read back');
  return { post, replayed: false };
}

/**
 * One post as the viewer may see it (its location through the location rule, like every listing),
 * with what they may do with it. Hidden by them, blocked either way, unknown or malformed: the same 404,
 * so a block leaves no trace (issue 23).
 */
export async function getPost(
  deps: Pick<PostsDeps, 'db' | 'publicBase'>,
  viewer: AuthContext,
  rawPostId: string,
): Promise<PostDetail> {
  const post = isUuid(rawPostId)
    ? await getPostView(deps.db, viewer, rawPostId.toLowerCase(), { publicBase: deps.publicBase })
    : null;
  if (!post) throw notFound(POST_NOT_FOUND_MESSAGE);
  const isOwn = post.user._id === viewer.userId;
  return {
    ...post,
    isOwn,
    canDelete: isOwn,
    canComment: !viewer.isDemo,
    canHide: !isOwn && !viewer.isDemo,
  };
}
