import { randomBytes } from 'node:crypto';
import pg from 'pg';
import sharp from 'sharp';
import { newUser, signUp } from './api.ts';

/** Helpers for the fault and scale-out tests: real users, small real photos, fresh databases. */

/** A small, real JPEG whose bytes depend on the seed. */
export async function smallJpeg(seed: number, width = 160, height = 120): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < pixels.length; i += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    pixels[i] = state >>> 24;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 75 })
    .toBuffer();
}

export interface ApiAnswer<T = unknown> {
  /** 0 when the connection failed (no answer at all). */
  status: number;
  body: T;
}

/** A signed-up, logged-in user talking to one server (the base URL can be switched). */
export class Client {
  constructor(
    public baseUrl: string,
    readonly userId: string,
    public accessToken: string,
    readonly email: string,
    readonly password: string,
  ) {}

  static async create(baseUrl: string, prefix: string): Promise<Client> {
    const user = await signUp(baseUrl, newUser(prefix));
    const res = await fetch(`${baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
    const { accessToken, userId } = (await res.json()) as { accessToken: string; userId: string };
    return new Client(baseUrl, userId, accessToken, user.email, user.password);
  }

  async call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    timeoutMs = 30_000,
  ): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.accessToken}` };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    try {
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: payload ?? null,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed as T };
    } catch {
      return { status: 0, body: undefined as T };
    }
  }

  uploadForm(image: Buffer, comment: string): FormData {
    const form = new FormData();
    form.append('comment', comment);
    form.append('showLocation', 'true');
    form.append('latitude', '51.5072');
    form.append('longitude', '-0.1276');
    form.append('exifData', '{}');
    form.append('file', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'cat.jpg');
    return form;
  }
}

/** A fresh PostgreSQL database on the TEST_DATABASE_URL server, or null when there is none. */
export async function freshDatabase(
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return null;
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** Limits high enough that dozens of users signing up and writing from one address never hit them. */
export const LOAD_LIMITS = {
  RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
  RATE_LIMIT_SIGNUP_PER_MINUTE: '100000',
  RATE_LIMIT_WRITES_PER_MINUTE: '100000',
  RATE_LIMIT_UPLOADS_PER_MINUTE: '100000',
};

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
