import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from '@cats/contracts';
import { buildTestApp, type TestApp } from '../build-app.ts';
import { answerProblems, Prober, Tally } from './support/probe.ts';
import { buildWorld, NO_RATE_LIMITS, type World } from './support/world.ts';

/**
 * Property-based: every schema the contracts package exports, fed anything at all, either parses or
 * fails with a ZodError (never another exception); and the server, fed generated bodies on the routes
 * that take text, never answers 5xx and never writes on a refusal.
 */

const schemas: [string, z.ZodType][] = Object.entries(contracts).flatMap(([name, value]) =>
  value instanceof z.ZodType ? [[name, value] as [string, z.ZodType]] : [],
);

const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

/** Strings of any UTF-16 code units (unpaired surrogates and NUL included) and some near misses. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ maxLength: 600 }),
  fc.constantFrom('<script>alert(1)</script>', "' OR 1=1 --", '\u0000', '\u202E', '🐱'.repeat(30)),
);

const validUsername = fc.stringMatching(/^[A-Za-z0-9_.-]{3,23}$/);
const validPassword = fc
  .tuple(
    fc.stringMatching(/^[a-z]{2,6}$/),
    fc.stringMatching(/^[A-Z]{2,6}$/),
    fc.stringMatching(/^[0-9]{2,6}$/),
  )
  .map((parts) => parts.join(''));

describe('contracts schemas under arbitrary input', () => {
  it('exports schemas to test', () => {
    expect(schemas.length).toBeGreaterThanOrEqual(30);
  });

  it('parse either succeeds or throws a ZodError, for every exported schema', () => {
    for (const [name, schema] of schemas) {
      fc.assert(
        fc.property(anything, (value) => {
          try {
            schema.parse(value);
          } catch (err) {
            if (!(err instanceof z.ZodError)) throw new Error(`${name} threw ${String(err)}`, { cause: err });
          }
          expect(() => schema.safeParse(value)).not.toThrow();
        }),
        { numRuns: 150 },
      );
    }
  });

  it('an accepted sign-up always satisfies the rules the database relies on', () => {
    fc.assert(
      fc.property(
        fc.record({
          username: fc.oneof(text, validUsername),
          email: fc.oneof(text, fc.emailAddress()),
          password: fc.oneof(text, validPassword),
        }),
        (body) => {
          const parsed = contracts.signupRequestSchema.safeParse(body);
          if (!parsed.success) return;
          expect(parsed.data.username).toMatch(contracts.USERNAME_PATTERN);
          expect(parsed.data.email.length).toBeLessThanOrEqual(254);
          expect(parsed.data.password).toMatch(contracts.PASSWORD_PATTERN);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('an accepted comment or group name is within its limits, however it is spelt', () => {
    fc.assert(
      fc.property(text, (value) => {
        const comment = contracts.createCommentRequestSchema.safeParse({ newComment: value });
        if (comment.success) {
          expect(comment.data.newComment.trim().length).toBeGreaterThan(0);
          expect(comment.data.newComment.length).toBeLessThanOrEqual(contracts.COMMENT_MAX);
        }
        const group = contracts.createGroupRequestSchema.safeParse({ submitData: value });
        if (group.success)
          expect([...group.data.submitData].length).toBeLessThanOrEqual(contracts.GROUP_NAME_MAX);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the server under generated bodies', () => {
  let t: TestApp;
  let w: World;
  const tally = new Tally();
  let probe: Prober;

  beforeAll(async () => {
    t = await buildTestApp(NO_RATE_LIMITS);
    w = await buildWorld(t);
    probe = new Prober(t, tally);
  });
  afterAll(async () => {
    console.log(tally.summary('generated bodies'));
    await t?.close();
  });

  const routes = (
    world: World,
  ): {
    key: string;
    method: 'POST' | 'PUT';
    url: string;
    body: fc.Arbitrary<unknown>;
    mayWrite?: string[];
  }[] => [
    {
      key: 'POST /api/signup',
      method: 'POST',
      url: '/api/signup',
      body: fc.record(
        {
          username: fc.oneof(text, validUsername),
          email: fc.oneof(text, fc.emailAddress()),
          password: fc.oneof(text, validPassword),
        },
        { requiredKeys: [] },
      ),
    },
    {
      key: 'POST /api/login',
      method: 'POST',
      url: '/api/login',
      body: fc.record({ email: fc.oneof(text, fc.emailAddress()), password: text }, { requiredKeys: [] }),
      mayWrite: ['login_failures'],
    },
    {
      key: 'POST createComment',
      method: 'POST',
      url: `/api/posts/createComment/${world.aPost._id}`,
      body: fc.record({ newComment: text }),
    },
    {
      key: 'POST createGroup',
      method: 'POST',
      url: '/api/groups/createGroup',
      body: fc.record({ submitData: text }),
    },
    {
      key: 'POST joinGroup',
      method: 'POST',
      url: '/api/groups/joinGroup',
      body: fc.record({ submitData: text }),
    },
    {
      key: 'PUT blockUser',
      method: 'PUT',
      url: '/api/profile/blockUser/',
      body: fc.record(
        { blockedUser: fc.record({ _id: fc.oneof(text, fc.uuid()) }), postId: text },
        { requiredKeys: ['blockedUser'] },
      ),
    },
    {
      key: 'PUT settings/username',
      method: 'PUT',
      url: '/api/profile/settings/username',
      body: fc.record({ username: fc.oneof(text, validUsername), currentPassword: text }),
      mayWrite: ['login_failures'],
    },
    {
      key: 'PUT post groups',
      method: 'PUT',
      url: `/api/posts/${world.aPost._id}/groups`,
      body: fc.record({ groupIds: fc.array(fc.oneof(text, fc.uuid()), { maxLength: 5 }) }),
    },
    {
      key: 'PUT likePost',
      method: 'PUT',
      url: `/api/posts/likePost/${world.bPost._id}`,
      body: fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()),
    },
  ];

  it('never answers 5xx and writes nothing on a refusal, for generated JSON bodies', async () => {
    for (const route of routes(w)) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(route.body, fc.jsonValue()), async (body) => {
          let payload: string;
          try {
            payload = JSON.stringify(body) ?? 'null';
          } catch {
            return; // BigInt and friends have no JSON form
          }
          const res = await probe.send(
            route.key,
            'generated',
            {
              method: route.method,
              url: route.url,
              headers: { ...w.a.headers, 'content-type': 'application/json' },
              payload,
            },
            { mayWriteOnRefusal: route.mayWrite ?? [] },
          );
          expect(answerProblems(res)).toEqual([]);
        }),
        { numRuns: 60 },
      );
    }
    expect(tally.problems).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 300_000);

  it('never answers 5xx for generated path ids and page numbers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 60 }),
          fc.uuid(),
          fc.integer().map(String),
          fc.double().map(String),
        ),
        async (value) => {
          const id = encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
          const urls: [string, string][] = [
            ['GET getComments/:postId', `/api/posts/getComments/${id}`],
            ['GET feed/:page', `/api/feed/${id}`],
            ['GET groups/:groupId/posts?page', `/api/groups/${id}/posts?page=${id}`],
            ['GET getPosts?user&pagenum', `/api/profile/getPosts?user=${id}&pagenum=${id}`],
          ];
          for (const [key, url] of urls) {
            const res = await probe.send(key, 'generated id', { method: 'GET', url, headers: w.a.headers });
            expect(answerProblems(res)).toEqual([]);
          }
        },
      ),
      { numRuns: 80 },
    );
    expect(tally.problems).toEqual([]);
  }, 300_000);
});
