import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upkeep } from './embedded-upkeep.ts';
import { openPglite, type PgliteClient } from './pglite-thread.ts';

interface TableStats {
  n_dead_tup: number;
  n_mod_since_analyze: number;
  vacuumed: boolean;
  analyzed: boolean;
}

describe('embedded database upkeep', () => {
  let db: PgliteClient;

  beforeAll(async () => {
    db = await openPglite();
    await db.exec(`
      create table sightings (id serial primary key, cat text not null);
      create index sightings_cat_idx on sightings (cat);
      create table "Odd ""name""" (id int);
    `);
  }, 60_000);

  afterAll(async () => {
    await db.close();
  });

  async function stats(table: string): Promise<TableStats> {
    await db.query('select pg_stat_force_next_flush()');
    const { rows } = await db.query<TableStats>(
      `select n_dead_tup::int, n_mod_since_analyze::int, last_vacuum is not null as vacuumed,
         last_analyze is not null as analyzed
       from pg_stat_user_tables where relname = $1`,
      [table],
    );
    return rows[0]!;
  }

  it('vacuums and analyses a table once enough rows were added, then leaves it alone', async () => {
    await db.query(`insert into sightings (cat) select 'cat ' || g from generate_series(1, 2000) g`);
    expect(await stats('sightings')).toMatchObject({ vacuumed: false, analyzed: false });

    expect(await upkeep(db)).toEqual({ vacuumed: ['sightings'], analyzed: ['sightings'] });
    expect(await stats('sightings')).toMatchObject({
      vacuumed: true,
      analyzed: true,
      n_mod_since_analyze: 0,
    });
    // The planner now knows the table's size.
    const { rows } = await db.query<{ reltuples: number }>(
      `select reltuples from pg_class where relname = 'sightings'`,
    );
    expect(rows[0]!.reltuples).toBe(2000);

    expect(await upkeep(db)).toEqual({ vacuumed: [], analyzed: [] });
  });

  it('reclaims dead rows past autovacuum threshold, and only analyses a table that merely changed', async () => {
    // 50 + 20 % of 2,000 = 450 dead rows are tolerated; 600 are not.
    await db.query(`delete from sightings where id <= 600`);
    expect((await stats('sightings')).n_dead_tup).toBe(600);
    expect(await upkeep(db)).toEqual({ vacuumed: ['sightings'], analyzed: ['sightings'] });
    expect((await stats('sightings')).n_dead_tup).toBe(0);

    // 1,400 rows left: 50 + 10 % = 190 changes call for statistics, and 200 updates leave 200 dead
    // rows, under the 330 that would call for a vacuum.
    await db.query(`update sightings set cat = cat || '!' where id <= 800`);
    expect(await upkeep(db)).toEqual({ vacuumed: [], analyzed: ['sightings'] });
  });

  it('quotes table names', async () => {
    await db.query(`insert into "Odd ""name""" select g from generate_series(1, 1500) g`);
    expect(await upkeep(db)).toEqual({ vacuumed: ['Odd "name"'], analyzed: ['Odd "name"'] });
  });
});
