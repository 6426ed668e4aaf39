import { resolve } from 'node:path';
import { loadConfig } from '../config.ts';
import { openDatabase } from './client.ts';

// `npm run db:migrate`: applies the committed migrations to the configured database (PGlite or PostgreSQL).
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: resolve(config.DATA_DIR) });
try {
  await database.migrate();
  console.log(`Migrations applied (${database.kind}).`);
} finally {
  await database.close();
}
