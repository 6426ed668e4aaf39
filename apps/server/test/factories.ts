import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { isUuid } from '@cats/contracts';
import type { Database } from '../src/db/client.ts';
import {
  catCaretakers,
  cats,
  posts,
  users,
  type CatRow,
  type PostRow,
  type UserRow,
} from '../src/db/schema/index.ts';
import { usernameSkeleton } from '../src/lib/confusables.ts';
import { hashPassword } from '../src/lib/passwords.ts';

export const DEFAULT_PASSWORD = 'Whiskers123';
let defaultHash: Promise<string> | undefined;

let counter = 0;
const next = () =>
  `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`.slice(-12);

export interface CreatedUser extends UserRow {
  password: string;
}

/** A user with a known password; override any column. */
export async function createUser(
  db: Database,
  overrides: Partial<typeof users.$inferInsert> & { password?: string } = {},
): Promise<CreatedUser> {
  const { password, ...columns } = overrides;
  const id = next();
  const username = columns.username ?? `cat_${id}`;
  const passwordHash = password
    ? await hashPassword(password)
    : await (defaultHash ??= hashPassword(DEFAULT_PASSWORD));
  const [row] = await db
    .insert(users)
    .values({
      username,
      // As the app stores it (auth.repository insertUser); override with null for an account from before.
      usernameSkeleton: usernameSkeleton(username),
      email: `user_${id}@example.com`,
      passwordHash,
      ...columns,
    })
    .returning();
  return { ...row!, password: password ?? DEFAULT_PASSWORD };
}

/**
 * A post row without going through the upload pipeline (its media key points at no files). Tests of
 * the pipeline itself upload real fixture images instead.
 */
export async function createPost(
  db: Database,
  userId: string,
  overrides: Partial<typeof posts.$inferInsert> = {},
): Promise<PostRow> {
  const [row] = await db
    .insert(posts)
    .values({
      userId,
      caption: 'A cat on a wall',
      mediaKey: `posts/${randomBytes(16).toString('hex')}`,
      width: 800,
      height: 800,
      placeholder: 'AAAA',
      ...overrides,
    })
    .returning();
  return row!;
}

/**
 * Authorization header for a user, minted directly (tests of login itself go through the API), as a
 * login just now would: the session's generation (users.session_generation) and a fresh sign-in time.
 */
export async function authHeader(app: FastifyInstance, userId: string): Promise<{ authorization: string }> {
  const [row] = isUuid(userId)
    ? await app.database.db
        .select({ generation: users.sessionGeneration })
        .from(users)
        .where(eq(users.id, userId))
    : [];
  const token = await app.accessTokens.sign(userId, {
    generation: row?.generation ?? 0,
    signedInAt: new Date(),
  });
  return { authorization: `Bearer ${token}` };
}

/**
 * A cat row with its creator as first caretaker, without the API (tests of the routes use POST /api/cats).
 * `caretakers`: more caretakers besides the creator.
 */
export async function createCat(
  db: Database,
  createdBy: string,
  overrides: Partial<typeof cats.$inferInsert> & { caretakers?: string[] } = {},
): Promise<CatRow> {
  const { caretakers = [], ...columns } = overrides;
  const [row] = await db
    .insert(cats)
    .values({ name: `Cat ${next().slice(-5)}`, createdBy, ...columns })
    .returning();
  await db
    .insert(catCaretakers)
    .values([createdBy, ...caretakers].map((userId) => ({ catId: row!.id, userId })));
  return row!;
}
