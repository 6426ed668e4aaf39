import type { FastifyInstance } from 'fastify';

/** A JSON schema as @fastify/swagger renders the zod route schemas (only what the suites read). */
export interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  pattern?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
}

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify style: /api/posts/likePost/:postId */
  path: string;
  /** `${method} ${path}`, the row name in every table. */
  key: string;
  params: string[];
  query: Record<string, JsonSchema>;
  /** JSON request body, or null when the route declares none. */
  body: JsonSchema | null;
  multipart: boolean;
  /** Declares security in the OpenAPI document (a bearer token, or a stream ticket). */
  secured: boolean;
  /**
   * Takes a stream ticket in its query (the notification stream, which EventSource opens without
   * headers): the document lists the ticket under security, not among the query parameters.
   */
  ticket: boolean;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  consumes?: string[];
  security?: Record<string, unknown>[];
}

/**
 * Every API route, read from the app's own OpenAPI document, so that a route added later is thrown at
 * without touching the suites. Routes hidden from the document are aliases of listed ones (a trailing
 * slash) or the media route, which the suites add by hand (MEDIA_ROUTE).
 */
export function apiRoutes(app: FastifyInstance): ApiRoute[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, OpenApiOperation>> };
  const routes: ApiRoute[] = [];
  for (const [openApiPath, operations] of Object.entries(doc.paths)) {
    const path = openApiPath.replace(/\{([^}]+)\}/g, ':$1');
    for (const [method, op] of Object.entries(operations)) {
      const upper = method.toUpperCase() as ApiRoute['method'];
      const params = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      const query = Object.fromEntries(
        (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]),
      );
      const content = op.requestBody?.content ?? {};
      const multipart =
        'multipart/form-data' in content || (op.consumes ?? []).includes('multipart/form-data');
      routes.push({
        method: upper,
        path,
        key: `${upper} ${path}`,
        params,
        query,
        body: content['application/json']?.schema ?? null,
        multipart,
        secured: (op.security ?? []).length > 0,
        ticket: (op.security ?? []).some((scheme) => 'streamTicket' in scheme),
      });
    }
  }
  return routes.sort((a, b) => a.key.localeCompare(b.key));
}

export const isWrite = (route: ApiRoute) => route.method !== 'GET';

/** Fills a path template: every :param from the given values (already URL-safe). */
export function fillPath(route: ApiRoute, values: Record<string, string>): string {
  return route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${route.key}`);
    return value;
  });
}

/** The string fields of a body schema as paths (['blockedUser', '_id']), nested objects included. */
export function stringFieldPaths(schema: JsonSchema | null, prefix: string[] = []): string[][] {
  if (!schema) return [];
  const out: string[][] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const types = Array.isArray(prop.type) ? prop.type : [prop.type];
    if (types.includes('string')) out.push([...prefix, name]);
    else if (prop.properties) out.push(...stringFieldPaths(prop, [...prefix, name]));
    else if (prop.type === undefined && !prop.anyOf) out.push([...prefix, name]); // unknown: anything goes
  }
  return out;
}

/** Every property path of a body schema (for wrong types and missing fields). */
export function fieldPaths(schema: JsonSchema | null, prefix: string[] = []): string[][] {
  if (!schema) return [];
  const out: string[][] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    out.push([...prefix, name]);
    if (prop.properties) out.push(...fieldPaths(prop, [...prefix, name]));
  }
  return out;
}

/** A plausible value for a schema, for routes without a hand-written example body. */
export function exampleFor(schema: JsonSchema | undefined): unknown {
  if (!schema) return 'x';
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, prop]) => [name, exampleFor(prop)]),
      );
    case 'array':
      return [];
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'string':
      return 'Whiskers';
    default:
      return schema.properties ? exampleFor({ ...schema, type: 'object' }) : 'x';
  }
}

export function setAt(
  target: Record<string, unknown>,
  path: string[],
  value: unknown,
): Record<string, unknown> {
  const copy = structuredClone(target);
  let node: Record<string, unknown> = copy;
  for (const part of path.slice(0, -1)) {
    const next = node[part];
    node[part] = next && typeof next === 'object' ? next : {};
    node = node[part] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
  return copy;
}

export function deleteAt(target: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const copy = structuredClone(target);
  let node: Record<string, unknown> | undefined = copy;
  for (const part of path.slice(0, -1)) node = node?.[part] as Record<string, unknown> | undefined;
  if (node) delete node[path[path.length - 1]!];
  return copy;
}
