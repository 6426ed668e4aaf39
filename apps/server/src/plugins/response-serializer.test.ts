import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from '@cats/contracts';
import { compileFast, createResponseSerializerCompiler, simplifyNullable } from './response-serializer.ts';

const post: contracts.Post = {
  _id: '0b7e3a52-7a55-4e59-9d3a-5d0e3c1e0a01',
  user: { _id: '4c1f5d02-3b1e-4c59-8d3a-1d0e3c1e0a02', username: 'luna_lover' },
  imageUrl: '/media/p/abc-800.webp',
  image: {
    width: 1200,
    height: 900,
    placeholder: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw',
    variants: { '400': '/media/p/abc-400.webp', '800': '/media/p/abc-800.webp' },
  },
  caption: 'Sleeps on the "warm" wall \u2028 every day',
  catName: null,
  cat: null,
  altText: null,
  greatCat: ['4c1f5d02-3b1e-4c59-8d3a-1d0e3c1e0a02'],
  latitude: 36.72,
  longitude: -4.42,
  showLocation: true,
  locationPrecision: 'approximate',
  commentCount: 3,
  createdAt: '2026-11-22T10:00:00.000Z',
  editedAt: null,
};
const page: contracts.PagedPostsResponse = {
  posts: [post, { ...post, locationPrecision: null, latitude: null, longitude: null, catName: 'Tom' }],
  info: { next: 2, nextCursor: 'MjAyNi0xMS0yMlQxMDowMDowMC4wMDAwMDBafDBiN2U' },
};
const route = (schema: unknown) => ({ schema, method: 'GET', url: '/api/test', httpStatus: '200' });

describe('response serializer', () => {
  it('compiles every response schema of the contracts to fast-json-stringify', () => {
    const responseSchemas = Object.entries(contracts).filter(
      ([name, value]) => name.endsWith('ResponseSchema') && value instanceof z.ZodType,
    );
    expect(responseSchemas.length).toBeGreaterThan(15);
    const fallbacks = responseSchemas.filter(([, schema]) => compileFast(schema) === null).map(([n]) => n);
    expect(fallbacks).toEqual([]);
  });

  it('writes the same JSON as zod, escapes strings, and drops properties the schema does not declare', () => {
    const fast = compileFast(contracts.pagedPostsResponseSchema)!;
    const leaky = {
      ...page,
      posts: page.posts.map((p) => ({ ...p, passwordHash: 'secret', user: { ...p.user, email: 'x@y.z' } })),
    };
    const out = fast(leaky);
    expect(out).not.toContain('secret');
    expect(out).not.toContain('x@y.z');
    expect(JSON.parse(out)).toEqual(contracts.pagedPostsResponseSchema.parse(leaky));
    expect(JSON.parse(out).posts[0].caption).toBe(post.caption);
  });

  it('cross-checks against zod outside production: a wrong shape still fails', () => {
    const compile = createResponseSerializerCompiler({ crossCheck: true });
    const serialize = compile(route(contracts.pagedPostsResponseSchema) as never);
    expect(JSON.parse(serialize(page))).toEqual(page);
    const wrong = { ...page, posts: [{ ...post, commentCount: 'three' }] };
    expect(() => serialize(wrong)).toThrow();
    // Production trusts the compiled writer (types guarantee the shape) and skips zod.
    const production = createResponseSerializerCompiler({ crossCheck: false });
    expect(JSON.parse(production(route(contracts.pagedPostsResponseSchema) as never)(page))).toEqual(page);
  });

  it('keeps the zod serializer for a schema JSON Schema cannot express', () => {
    const custom = z.object({ tag: z.custom<string>((v) => typeof v === 'string' && v.startsWith('#')) });
    expect(compileFast(custom)).toBeNull();
    const serialize = createResponseSerializerCompiler({ crossCheck: false })(route(custom) as never);
    expect(serialize({ tag: '#cats' })).toBe('{"tag":"#cats"}');
    expect(() => serialize({ tag: 'cats' })).toThrow();
  });

  it('turns a nullable enum into a nullable type', () => {
    const json = z.toJSONSchema(z.object({ p: z.enum(['exact', 'approximate']).nullable() }), {
      io: 'output',
    });
    expect((simplifyNullable(json) as { properties: { p: unknown } }).properties.p).toEqual({
      type: ['string', 'null'],
      enum: ['exact', 'approximate', null],
    });
  });
});
