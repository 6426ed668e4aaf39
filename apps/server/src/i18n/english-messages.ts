import * as contracts from '@cats/contracts';

/**
 * Every English text the server can answer as {message} that is known ahead of time, found from the
 * code rather than typed out: the exported *_MESSAGE(S)/*_HINT constants and every message written into
 * a zod schema of the contracts. The Spanish catalogue test walks this list so a new English text
 * without a translation fails the build.
 */
export function collectEnglishMessages(modules: Record<string, unknown>[]): Set<string> {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  for (const mod of [contracts as Record<string, unknown>, ...modules]) {
    for (const [name, value] of Object.entries(mod)) {
      if (/_(MESSAGES?|HINT)$/.test(name)) collectStrings(value, found);
      if (isZodSchema(value)) collectZod(value, found, seen);
    }
  }
  return found;
}

function collectStrings(value: unknown, found: Set<string>) {
  if (typeof value === 'string') found.add(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collectStrings(v, found);
}

type ZodLike = { _zod: { def: Record<string, unknown> } };
const isZodSchema = (value: unknown): value is ZodLike =>
  !!value && typeof value === 'object' && '_zod' in value && typeof (value as ZodLike)._zod?.def === 'object';

/** zod 4 keeps a custom message as def.error, a function returning it, on the schema and on each check. */
function collectZod(schema: unknown, found: Set<string>, seen: Set<unknown>) {
  if (!isZodSchema(schema) || seen.has(schema)) return;
  seen.add(schema);
  const def = schema._zod.def;
  addError(def.error, found);
  for (const check of (def.checks as ZodLike[] | undefined) ?? []) addError(check._zod?.def?.error, found);
  for (const key of [
    'innerType',
    'element',
    'in',
    'out',
    'left',
    'right',
    'valueType',
    'keyType',
    'schema',
    'rest',
  ]) {
    collectZod(def[key], found, seen);
  }
  for (const key of ['options', 'items'])
    for (const s of (def[key] as unknown[] | undefined) ?? []) collectZod(s, found, seen);
  const shape = def.shape as Record<string, unknown> | undefined;
  if (shape && typeof shape === 'object') for (const s of Object.values(shape)) collectZod(s, found, seen);
  if (typeof def.getter === 'function') collectZod((def.getter as () => unknown)(), found, seen);
}

function addError(error: unknown, found: Set<string>) {
  if (typeof error !== 'function') return;
  try {
    const out = (error as (issue: unknown) => unknown)({ code: 'custom', input: undefined, path: [] });
    if (typeof out === 'string') found.add(out);
    else if (out && typeof out === 'object' && typeof (out as { message?: unknown }).message === 'string')
      found.add((out as { message: string }).message);
  } catch {
    // A message function that needs a real issue is dynamic; the catalogue's patterns cover those.
  }
}
