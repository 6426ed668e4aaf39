import { createECDH } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/**
 * What the start seeds: `sample` the demo account and the sample neighbourhood (six neighbours sharing
 * the password the README prints), `demo` the read-only demo account only, `none` nothing. Unset, and
 * `true` (the old boolean's "yes, seed"), mean the environment's default: `demo` in production, where
 * sample accounts with a published password would be anyone's to log in to (issue 23), `sample`
 * elsewhere. A production server gets the sample neighbourhood only when it is spelt out.
 */
export type SeedChoice = 'sample' | 'demo' | 'none';
const seedSetting = z
  .enum(['sample', 'demo', 'none', 'true', 'false', '1', '0', 'yes', 'no'], {
    message: "expected sample, demo or none (true: this environment's default, false: none)",
  })
  .optional();

export function resolveSeed(
  value: z.infer<typeof seedSetting>,
  nodeEnv: 'development' | 'production' | 'test',
): SeedChoice {
  if (value === 'sample' || value === 'demo' || value === 'none') return value;
  if (value === 'false' || value === '0' || value === 'no') return 'none';
  return nodeEnv === 'production' ? 'demo' : 'sample';
}
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const envSchema = z
  .object({
    NODE_ENV: z
      .enum(['development', 'production', 'test'], { message: 'expected development, production or test' })
      .default('development'),
    PORT: z.coerce.number({ message: 'expected a port number' }).int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { message: 'expected a postgres:// or postgresql:// URL' })
        .optional(),
    ),
    DATABASE_POOL_SIZE: z.coerce.number({ message: 'expected a number' }).int().min(1).max(200).default(10),
    JWT_SECRET: z.preprocess(
      emptyToUndefined,
      z.string().min(32, { message: 'expected at least 32 characters' }).optional(),
    ),
    PUBLIC_URL: z.preprocess(
      emptyToUndefined,
      z.url({ message: 'expected an absolute URL such as https://cats.example' }).optional(),
    ),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        message: 'expected a pino log level',
      })
      .default('info'),
    FEED_PAGE_SIZE: z.coerce.number({ message: 'expected a number' }).int().min(1).max(100).default(20),
    SEED: z.preprocess(emptyToUndefined, seedSetting),
    TRUST_PROXY: z.preprocess(emptyToUndefined, bool.default(false)),
    // Swagger UI at /api/docs; unset: on except in production. /api/openapi.json is always served.
    API_DOCS: z.preprocess(emptyToUndefined, bool.optional()),
    MEDIA_DIR: optionalString,
    S3_ENDPOINT: z.preprocess(
      emptyToUndefined,
      z.url({ message: 'expected a URL such as http://127.0.0.1:4569' }).optional(),
    ),
    S3_BUCKET: optionalString,
    S3_REGION: z.string().default('us-east-1'),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_PUBLIC_URL: z.preprocess(emptyToUndefined, z.url({ message: 'expected a URL' }).optional()),
    REDIS_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^rediss?:\/\//, { message: 'expected a redis:// URL' })
        .optional(),
    ),
    // Mail (password reset, email change): SMTP when set; unset, mails go to DATA_DIR/outbox/ as .eml files.
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^smtps?:\/\/[^\s]+$/, {
          message: 'expected an smtp:// or smtps:// URL such as smtps://user:pass@smtp.example.org:465',
        })
        .optional(),
    ),
    MAIL_FROM: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, {
          message: "expected an address such as 'Neighbourhood Cats <no-reply@cats.example>'",
        })
        .default('Neighbourhood Cats <no-reply@localhost>'),
    ),
    // Per-IP request limits on the credential endpoints (the per-account login throttle is separate).
    RATE_LIMIT_LOGIN_PER_MINUTE: z.coerce
      .number({ message: 'expected a number' })
      .int()
      .min(1)
      .max(1_000_000)
      .default(20),
    RATE_LIMIT_SIGNUP_PER_MINUTE: z.coerce
      .number({ message: 'expected a number' })
      .int()
      .min(1)
      .max(1_000_000)
      .default(10),
    // Per-user limits on every other write and on uploads (issue 9); shared through Redis when REDIS_URL is set.
    RATE_LIMIT_WRITES_PER_MINUTE: z.coerce
      .number({ message: 'expected a number' })
      .int()
      .min(1)
      .max(1_000_000)
      .default(300),
    RATE_LIMIT_UPLOADS_PER_MINUTE: z.coerce
      .number({ message: 'expected a number' })
      .int()
      .min(1)
      .max(1_000_000)
      .default(60),
    // Missing-cat alerts one account may raise in 24 hours (issue 46), counted in the database: each
    // tells the neighbours within 2 km.
    MISSING_ALERTS_PER_DAY: z.coerce
      .number({ message: 'expected a number' })
      .int()
      .min(1)
      .max(1_000_000)
      .default(5),
    // Notification streams one user may hold open on an instance (issue 46): one more ends their oldest.
    NOTIFICATION_STREAMS_PER_USER: z.coerce
      .number({ message: 'expected a number' })
      .int()
      .min(1)
      .max(10_000)
      .default(5),
    // Media written this long ago without a row pointing at it is an orphan (start-up sweep).
    ORPHAN_SWEEP_GRACE_SECONDS: z.coerce
      .number({ message: 'expected a number of seconds' })
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .default(600),
    // One core fewer than the machine has (at least one): image work never takes every core from the
    // requests meanwhile (docs/performance.md, Uploads: feed p99 during 8 uploads 668 -> 470 ms on 2 cores).
    IMAGE_CONCURRENCY: z.coerce
      .number({ message: 'expected a number' })
      .int()
      .min(1)
      .max(16)
      .default(Math.max(1, availableParallelism() - 1)),
    // Seconds one image may take in its slot, all its steps together (sharp's timeout); past it the
    // upload answers 422 and the slot is free (issue 46). A 40 MP PNG takes ~1 s on one core of a busy
    // 2-core machine, a phone photo ~0.3 s: 5 s leaves room for a slower machine and refuses crafted ones.
    IMAGE_TIMEOUT_SECONDS: z.coerce
      .number({ message: 'expected a number of seconds' })
      .int()
      .min(1)
      .max(3600)
      .default(5),
    // Prometheus metrics at /metrics (modules/metrics/metrics.ts): off unless one of these is set. The token
    // is compared in constant time; the port is a second listener on 127.0.0.1 only.
    METRICS_TOKEN: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .min(16, { message: 'expected at least 16 characters (a random token, e.g. openssl rand -hex 32)' })
        .regex(/^[\x21-\x7E]+$/, {
          message: 'expected printable ASCII without spaces (it is sent as a bearer token)',
        })
        .optional(),
    ),
    METRICS_PORT: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ message: 'expected a port number' })
        .int({ message: 'expected a port number' })
        .min(1, { message: 'expected a port number from 1 to 65535' })
        .max(65535, { message: 'expected a port number from 1 to 65535' })
        .optional(),
    ),
    // On SIGTERM, readiness answers 503 this long before the server closes, so that a load balancer stops
    // sending traffic first. Unset: 5 s in production; 0 elsewhere (tsx watch restarts with SIGTERM and
    // kills after 5 s).
    SHUTDOWN_DRAIN_SECONDS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ message: 'expected a number of seconds' })
        .int({ message: 'expected a whole number of seconds' })
        .min(0, { message: 'expected 0 to 300 seconds' })
        .max(300, { message: 'expected 0 to 300 seconds' })
        .optional(),
    ),
    MAP_TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
    MAP_TILE_ATTRIBUTION: z
      .string()
      .default('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),
    WEB_DIST_DIR: optionalString,
    // Web Push (issue 25). Unset: generated once, into DATA_DIR (embedded database) or into the database
    // (PostgreSQL, so every instance signs with the same key): docs/decisions/009-web-push.md.
    VAPID_PUBLIC_KEY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{87}$/, {
          message: 'expected a P-256 public key, 65 bytes as URL-safe base64 (87 characters)',
        })
        .optional(),
    ),
    VAPID_PRIVATE_KEY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{43}$/, {
          message: 'expected a P-256 private key, 32 bytes as URL-safe base64 (43 characters)',
        })
        .optional(),
    ),
    VAPID_SUBJECT: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/, {
          message: 'expected a mailto: address or an https:// URL where push services can reach you',
        })
        .optional(),
    ),
    // Hosts whose push endpoints are accepted besides the browsers' own push services (push-endpoints.ts):
    // comma-separated, `host`, `host:port` or `*.domain`. A listed host may be plain http.
    PUSH_ENDPOINT_HOSTS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^\s*(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?\s*(,\s*(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?\s*)*$/, {
          message: 'expected host names separated by commas, such as push.example.org,127.0.0.1:8080',
        })
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.S3_BUCKET && !env.S3_ENDPOINT && !env.S3_REGION) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_ENDPOINT'],
        message: 'expected an endpoint when S3_BUCKET is set',
      });
    }
    if (env.S3_ENDPOINT && !env.S3_BUCKET) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'expected a bucket name when S3_ENDPOINT is set',
      });
    }
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'],
        message: 'expected both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither (then they are generated)',
      });
    } else if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
      const problem = vapidPairProblem(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY);
      if (problem) ctx.addIssue({ code: 'custom', path: ['VAPID_PUBLIC_KEY'], message: problem });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'expected a port other than PORT (metrics get a listener of their own on 127.0.0.1)',
      });
    }
    // Links in mails are built from PUBLIC_URL, never from the request's Host (reset-link poisoning);
    // real mail with links to http://localhost would be useless to everyone who gets it.
    if (env.NODE_ENV === 'production' && env.SMTP_URL && !env.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message:
          'required in production when SMTP_URL is set: links in mails are built from it (such as https://cats.example)',
      });
    }
    if (env.NODE_ENV === 'production' && !env.JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message:
          'required in production (at least 32 random characters); generated secrets are for development only',
      });
    }
  })
  .transform((env) => ({
    ...env,
    SEED: resolveSeed(env.SEED, env.NODE_ENV),
    // A production server shows no API explorer (one more page, with its own CSP exception, to keep
    // safe) unless the operator asks for it; the contract itself stays at /api/openapi.json.
    API_DOCS: env.API_DOCS ?? env.NODE_ENV !== 'production',
    SHUTDOWN_DRAIN_SECONDS: env.SHUTDOWN_DRAIN_SECONDS ?? (env.NODE_ENV === 'production' ? 5 : 0),
  }));

/**
 * Why a VAPID key pair cannot be used, or null: browsers subscribe with the public key and the push
 * service checks every signature against it, so a mismatched pair would fail every push, silently.
 */
function vapidPairProblem(publicKey: string, privateKey: string): string | null {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    return ecdh.getPublicKey().toString('base64url') === publicKey
      ? null
      : 'expected the public key of VAPID_PRIVATE_KEY (npx web-push generate-vapid-keys makes a pair)';
  } catch {
    return 'VAPID_PRIVATE_KEY is not a P-256 private key';
  }
}

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once; the only place that reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = issue.path.join('.') || '(environment)';
      return `  ${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Test helper: a config with overrides, parsed through the same schema. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED: 'false', ...overrides });
}
