import { PGlite, parse, protocol, type Results } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawReply, readReply } from './pglite-reply.ts';

/**
 * readReply against PGlite's own reading of the very same bytes: every statement here runs once
 * through the extended protocol, and both readers must give the same Results.
 */
let pg: PGlite;

beforeAll(async () => {
  pg = await PGlite.create();
  await pg.exec(`
    create table cats (id serial primary key, name text not null unique, born timestamptz, tags text[]);
    insert into cats (name, born, tags) values
      ('Misu', '2024-03-01T10:00:00Z', '{tabby,"says \\"hi\\"",null}'),
      ('Bigotes 🐈', null, '{}');
  `);
}, 60_000);

afterAll(async () => {
  await pg.close();
});

/** The raw reply to one statement, as the database thread sends it. */
async function replyTo(sql: string, values: (string | null)[] = []): Promise<Uint8Array> {
  const { serialize } = protocol;
  return rawReply(
    pg,
    Buffer.concat([
      serialize.parse({ text: sql }),
      serialize.bind({ values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]),
  );
}

function pgliteReading(reply: Uint8Array, rowMode?: 'array' | 'object'): Results {
  const messages: Parameters<typeof parse.parseResults>[0] = [];
  new protocol.Parser().parse(reply, (message) => messages.push(message));
  return parse.parseResults(messages, pg.parsers, rowMode ? { rowMode } : {})[0]!;
}

const STATEMENTS: [string, string, (string | null)[]?][] = [
  [
    'every type the app reads',
    `select 1::int2 as small, 2147483647::int4 as int, 9007199254740993::int8 as big, 1.5::float8 as float,
       12.345::numeric as exact, true as yes, false as no, null::text as nothing, '' as empty,
       'Ñandú, 猫, 🐈‍⬛' as unicode, '{"a":[1,"ü"]}'::json as js, '{"b":null}'::jsonb as jsb,
       '2026-11-24T10:20:30.123Z'::timestamptz as at, '2026-11-24'::date as day,
       '1 day 02:00'::interval as span, '\\x00ff10'::bytea as raw, array[1,2,null]::int[] as ints,
       gen_random_uuid() is not null as has_uuid, 'a'::"char" as ch`,
  ],
  ['rows from a table, with a parameter', 'select * from cats where id >= $1 order by id', ['1']],
  ['no rows', 'select id, name from cats where false'],
  ['a column name used twice', 'select 1 as x, 2 as x'],
  ['a statement without columns', 'create temporary table scratch (n int)'],
  ['an insert returning rows', `insert into cats (name) values ('Sombra'), ('Luna') returning id, name`],
  ['an update', `update cats set born = now() where name in ('Sombra', 'Luna')`],
  ['a delete', `delete from cats where name = 'Luna'`],
  ['many rows (a reply over 1 MB)', `select g, repeat('x', 200) as pad from generate_series(1, 8000) g`],
];

describe('readReply', () => {
  for (const [what, sql, values] of STATEMENTS) {
    it(`reads ${what} as PGlite does`, async () => {
      // Each statement changes the data at most once: both readings are of the same reply.
      const reply = await replyTo(sql, values);
      for (const rowMode of ['array', 'object', undefined] as const) {
        expect(readReply(reply, pg.parsers, rowMode)).toStrictEqual(pgliteReading(reply, rowMode));
      }
    });
  }

  it('gives the values their JavaScript types', async () => {
    const reply = await replyTo(`select 7::int4 as n, 'Ñandú 🐈' as t, true as b, null::int as z,
      '2026-11-24T10:20:30Z'::timestamptz as at, '{"k":1}'::jsonb as j`);
    const { rows, fields } = readReply(reply, pg.parsers);
    expect(fields.map((f) => f.name)).toEqual(['n', 't', 'b', 'z', 'at', 'j']);
    expect(rows).toEqual([
      { n: 7, t: 'Ñandú 🐈', b: true, z: null, at: new Date('2026-11-24T10:20:30Z'), j: { k: 1 } },
    ]);
  });

  it('keeps as text the types given a text parser', async () => {
    const reply = await replyTo(`select '2026-11-24T10:20:30Z'::timestamptz as at`);
    const parsers = { ...pg.parsers, 1184: (text: string) => text };
    expect(readReply(reply, parsers, 'array').rows).toEqual([['2026-11-24 10:20:30+00']]);
  });

  it("counts the rows a change touched, as PGlite's affectedRows does", async () => {
    const reply = await replyTo(`update cats set born = null where name = 'Misu'`);
    expect(readReply(reply, pg.parsers)).toMatchObject({ command: 'UPDATE', affectedRows: 1, rowCount: 1 });
  });

  it("throws the database's error with its fields", async () => {
    const reply = await replyTo(`insert into cats (name) values ('Misu')`);
    const error = (() => {
      try {
        readReply(reply, pg.parsers);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: '23505',
      constraint: 'cats_name_key',
      table: 'cats',
      message: 'duplicate key value violates unique constraint "cats_name_key"',
    });
    // The failed statement ended at its Sync: the next one runs.
    expect(readReply(await replyTo('select count(*)::int as n from cats'), pg.parsers).rows).toEqual([
      { n: 3 },
    ]);
  });

  it('throws a bad parameter as the database refused it', async () => {
    const reply = await replyTo('select * from cats where id = $1', ['not a number']);
    expect(() => readReply(reply, pg.parsers)).toThrow(/invalid input syntax for type integer/);
  });
});
