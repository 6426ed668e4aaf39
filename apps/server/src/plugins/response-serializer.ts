import { isDeepStrictEqual } from 'node:util';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type SerializerCompiler = ReturnType<typeof createSerializerCompiler>;
type RouteSchema = Parameters<SerializerCompiler>[0];
type Serialize = (data: unknown) => string;

/**
 * Response serialisation from the contracts' zod schemas, compiled once per route.
 *
 * fastify-type-provider-zod's own serializer re-validates every response with zod, then runs
 * JSON.stringify: 13 % of the CPU of a feed request in the profile (docs/performance.md). Here each
 * response schema is turned into JSON Schema (zod's own toJSONSchema) and compiled with
 * fast-json-stringify, which writes only the properties the schema declares (as zod's strip did), in
 * one pass with no validation.
 *
 * With `crossCheck` (every environment but production, so all API and unit tests) each response also
 * goes through the zod serializer: a shape error still fails loudly, and the two outputs must be the
 * same JSON, so a schema fast-json-stringify reads differently from zod cannot pass the tests. A schema
 * that cannot be expressed as JSON Schema (a transform, say) keeps the zod serializer.
 */
export function createResponseSerializerCompiler(opts: { crossCheck: boolean }): SerializerCompiler {
  const zodSerializerCompiler = createSerializerCompiler({});
  return (routeSchema: RouteSchema) => {
    const viaZod: Serialize = zodSerializerCompiler(routeSchema);
    const compiled = compileFast(routeSchema.schema);
    if (!compiled) return viaZod;
    if (!opts.crossCheck) return compiled;
    return (data) => {
      const expected = viaZod(data);
      const output = compiled(data);
      if (!isDeepStrictEqual(JSON.parse(output), JSON.parse(expected))) {
        throw new Error(
          `fast-json-stringify and zod disagree on ${routeSchema.method} ${routeSchema.url}: ${output} vs ${expected}`,
        );
      }
      return output;
    };
  };
}

export function compileFast(schema: unknown): Serialize | null {
  if (!(schema instanceof z.ZodType)) return null;
  try {
    const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    return fastJsonStringify(simplifyNullable(json) as Schema) as Serialize;
  } catch {
    return null;
  }
}

/**
 * zod writes `.nullable()` over an enum as anyOf [{enum}, {type: null}]. fast-json-stringify serialises
 * an anyOf by validating each branch with ajv at run time; the equivalent `type: [T, 'null']` is
 * written directly.
 */
export function simplifyNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplifyNullable);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).map(([k, v]) => [k, simplifyNullable(v)] as const);
  const out: Record<string, unknown> = Object.fromEntries(entries);
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const isNull = (s: unknown) =>
      typeof s === 'object' && s !== null && (s as { type?: unknown }).type === 'null';
    const other = anyOf.find((s) => !isNull(s)) as Record<string, unknown> | undefined;
    if (other && anyOf.some(isNull) && typeof other.type === 'string') {
      const { anyOf: _dropped, ...rest } = out;
      return {
        ...rest,
        ...other,
        type: [other.type, 'null'],
        ...(Array.isArray(other.enum) ? { enum: [...(other.enum as unknown[]), null] } : {}),
      };
    }
  }
  return out;
}
