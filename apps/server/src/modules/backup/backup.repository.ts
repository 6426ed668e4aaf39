import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw-results.ts';

/**
 * What a snapshot's rows point at in the media storage: prefixes (a post's, a profile picture's, a
 * reported picture's variants) and single keys (data exports). The same rows as
 * media.repository.ts's referencedMediaPrefixes, over the whole database. Plain SQL: it runs inside
 * the embedded database's snapshot (pglite-worker.ts) and in pg_dump's exported snapshot.
 */
export const REFERENCED_MEDIA_SQL = `
  select 'prefix' as kind, media_key as target from posts
  union select 'prefix', profile_pic_key from users where profile_pic_key is not null
  union select 'prefix', snapshot ->> 'mediaKey' from reports where snapshot ->> 'mediaKey' is not null
  union select 'key', file_key from data_exports where file_key is not null
  order by 2`;

/** How far the snapshot's schema is migrated (drizzle's own table). */
export const MIGRATION_LEVEL_SQL = `
  select count(*)::int as applied,
         (select hash from drizzle.__drizzle_migrations order by created_at desc limit 1) as last_hash
  from drizzle.__drizzle_migrations`;

export interface MediaReference {
  kind: 'prefix' | 'key';
  target: string;
}

export interface MigrationLevel {
  applied: number;
  lastHash: string | null;
}

export function readReferences(rows: Record<string, unknown>[]): MediaReference[] {
  return rows.map((row) => ({ kind: row.kind as 'prefix' | 'key', target: String(row.target) }));
}

export function readMigrationLevel(rows: Record<string, unknown>[]): MigrationLevel {
  const row = rows[0] ?? {};
  return { applied: Number(row.applied ?? 0), lastHash: (row.last_hash as string | null) ?? null };
}

/** Takes (or renews) a backup's lease until `seconds` from now. */
export async function holdLease(db: Executor, id: string, seconds: number): Promise<void> {
  await db.execute(sql`
    insert into backup_leases (id, expires_at) values (${id}, now() + make_interval(secs => ${seconds}))
    on conflict (id) do update set expires_at = excluded.expires_at`);
}

export async function releaseLease(db: Executor, id: string): Promise<void> {
  await db.execute(sql`delete from backup_leases where id = ${id}`);
}

/**
 * Records a media deletion instead of carrying it out if a backup holds a lease, in one statement (so a
 * lease taken a moment later sees the row deleted already, or the deletion deferred: never neither).
 * True when deferred.
 */
export async function deferIfBackingUp(
  db: Executor,
  target: string,
  kind: 'prefix' | 'key',
): Promise<boolean> {
  const result = await db.execute(sql`
    insert into deferred_media_deletions (target, kind)
    select ${target}, ${kind}
    where exists (select 1 from backup_leases where expires_at > now())
    on conflict (target) do update set deferred_at = now()
    returning target`);
  return rowsOf(result).length > 0;
}

/** The deferred deletions, if no backup holds a lease any more; [] while one does. */
export async function deferredDeletionsIfNoLease(db: Executor): Promise<MediaReference[]> {
  const result = await db.execute(sql`
    select kind, target from deferred_media_deletions
    where not exists (select 1 from backup_leases where expires_at > now())
    order by deferred_at`);
  return readReferences(rowsOf(result));
}

export async function forgetDeferred(db: Executor, target: string): Promise<void> {
  await db.execute(sql`delete from deferred_media_deletions where target = ${target}`);
}

/** Expired leases (a backup that died) are removed, so they stop showing up at all. */
export async function dropExpiredLeases(db: Executor): Promise<void> {
  await db.execute(sql`delete from backup_leases where expires_at <= now()`);
}
