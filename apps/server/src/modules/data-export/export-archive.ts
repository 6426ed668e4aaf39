import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client.ts';
import type { MediaStorage } from '../../media/storage.ts';
import { variantKey } from '../../media/urls.ts';
import * as repo from './data-export.repository.ts';

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

const iso = (date: Date | null) => (date ? date.toISOString() : null);
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
  const written = pipeline(zip.outputStream, createWriteStream(path));
  // Whichever fails first ends the export; the other's rejection is then ignored.
  const done = Promise.race([written, failed]);
  done.catch(() => {});

  const add = (name: string, content: () => AsyncIterable<string>) =>
    zip.addReadStreamLazy(name, { compress: true }, (cb) => cb(null, Readable.from(content())));

  add('profile.json', async function* () {
    yield `${JSON.stringify(
      {
        id: profile.id,
        username: profile.username,
        email: profile.email,
        createdAt: iso(profile.createdAt),
        settings: { exactPublicLocation: profile.exactPublicLocation },
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
