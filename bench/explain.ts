/**
 * EXPLAIN ANALYZE of the feed query (docs/performance.md), on a copy of the dataset a full PGlite run
 * seeded (bench/.work/dataset-pglite-full-v<N>-<schema>), or on PostgreSQL with DATABASE_URL (a database the
 * bench seeded and kept: `npm run bench -- --keep`).
 *
 *   npx tsx bench/explain.ts [--page 200] [--viewer 1] [--cursor]
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { openDatabase } from '../apps/server/src/db/client.ts';
import * as schema from '../apps/server/src/db/schema/index.ts';
import { visiblePostsQuery, type PostFilter } from '../apps/server/src/modules/posts/posts.repository.ts';
import { datasetTemplateDir } from './support/dataset.ts';
import { rowsOf } from './support/db.ts';

const { values } = parseArgs({
  options: {
    page: { type: 'string', default: '200' },
    viewer: { type: 'string', default: '1' },
    profile: { type: 'string', default: 'full' },
    repeat: { type: 'string', default: '3' },
    /** 'feed' (default), 'ids' (explore's lone posts: 30 ids) or 'author' (a profile). */
    filter: { type: 'string', default: 'feed' },
  },
});

/** The SQL text and parameters drizzle sends for one feed page. */
export function feedSql(viewerId: string, page: number, filter: PostFilter = {}, pageSize = 20) {
  const mock = drizzle.mock({ schema });
  return visiblePostsQuery(mock as never, viewerId, filter, {
    limit: pageSize,
    offset: (page - 1) * pageSize,
  }).toSQL();
}

async function main() {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dir = mkdtempSync(join(tmpdir(), 'cats-explain-'));
  if (!databaseUrl) {
    cpSync(join(datasetTemplateDir(values.profile), 'pglite'), join(dir, 'pglite'), {
      recursive: true,
    });
  }
  const database = await openDatabase({ databaseUrl, dataDir: dir });
  try {
    const viewer = await database.db.execute(
      sql.raw(`select md5('bench-user-${values.viewer}')::uuid::text as id`),
    );
    const rows = rowsOf<{ id: string }>(viewer);
    let filter: PostFilter = {};
    if (values.filter === 'ids') {
      const ids = await database.db.execute(
        sql.raw(
          `select id::text from posts where show_location and latitude is not null order by random() limit 30`,
        ),
      );
      filter = { postIds: rowsOf<{ id: string }>(ids).map((r) => r.id), located: true };
    } else if (values.filter === 'author') {
      const author = await database.db.execute(sql.raw(`select md5('bench-user-7')::uuid::text as id`));
      filter = { authorId: rowsOf<{ id: string }>(author)[0]!.id };
    }
    const { sql: text, params } = feedSql(
      rows[0]!.id,
      values.filter === 'ids' ? 1 : Number(values.page),
      filter,
    );
    // Inline the parameters: EXPLAIN of a parameterised statement needs them bound.
    const inlined = text.replace(/\$(\d+)/g, (_m, n: string) => {
      const v = params[Number(n) - 1];
      if (Array.isArray(v)) return `array[${v.map((x) => `'${String(x)}'`).join(',')}]`;
      return typeof v === 'number' ? String(v) : `'${String(v)}'`;
    });
    for (let i = 0; i < Number(values.repeat); i += 1) {
      const result = await database.db.execute(sql.raw(`explain (analyze, buffers, costs off) ${inlined}`));
      const plan = rowsOf<Record<string, string>>(result);
      if (i === Number(values.repeat) - 1) console.log(plan.map((r) => Object.values(r)[0]).join('\n'));
      else console.log(plan.at(-1) && Object.values(plan.at(-1)!)[0]);
    }
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
