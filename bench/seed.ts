/**
 * Seeds the benchmark dataset into a new PostgreSQL database and keeps it, for the experiment scripts
 * (bench/profile.ts, bench/explain.ts, bench/memory.ts with DATABASE_URL). Prints the database's URL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/seed.ts [--profile full]
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';
import { BENCH_PASSWORD, seedDataset } from './support/dataset.ts';
import { prepareMedia } from './support/media.ts';
import { createPgDatabase, PROFILES } from './run.ts';

const { values } = parseArgs({ options: { profile: { type: 'string', default: 'full' } } });
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl)
  throw new Error('set DATABASE_URL to a PostgreSQL server (the new database is created beside it)');
const profile = PROFILES[values.profile];
if (!profile) throw new Error(`unknown profile ${values.profile}`);
const media = await prepareMedia({ uploads: 0 });
const target = await createPgDatabase(adminUrl);
const database = await openDatabase({ databaseUrl: target.url, dataDir: '.' });
try {
  await database.migrate();
  const counts = await seedDataset(database, profile.dataset, media, await hashPassword(BENCH_PASSWORD));
  console.log(JSON.stringify(counts));
  console.log(target.url);
} finally {
  await database.close();
}
