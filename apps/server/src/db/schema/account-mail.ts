import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Single-use links sent by mail (issue 29): a password reset, or the confirmation of a new email
 * address. Only the SHA-256 of the random token is kept, so a database leak opens no account. A token
 * is taken with one UPDATE ... WHERE used_at IS NULL AND expires_at > now() RETURNING, so of two
 * concurrent uses only one succeeds. A new token of the same purpose marks the older ones used.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['password_reset', 'email_change'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The address an email change moves to; null for a password reset. */
    newEmail: text('new_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_idx').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.purpose),
    check('account_tokens_purpose', sql`${t.purpose} in ('password_reset', 'email_change')`),
    check('account_tokens_new_email', sql`(${t.purpose} = 'email_change') = (${t.newEmail} is not null)`),
    check('account_tokens_hash_length', sql`char_length(${t.tokenHash}) = 64`),
  ],
);

/**
 * Every mail sent with a link, to throttle per address and per account across instances (the
 * counters are in the database, not in one process). Rows older than the window are deleted as new
 * ones are written. An account's rows go with it.
 */
export const mailSends = pgTable(
  'mail_sends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The recipient, lower-cased. */
    addressLower: text('address_lower').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['password_reset', 'email_change'] }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mail_sends_address_idx').on(t.addressLower, t.sentAt),
    index('mail_sends_user_idx').on(t.userId, t.sentAt),
    index('mail_sends_sent_idx').on(t.sentAt),
    check('mail_sends_purpose', sql`${t.purpose} in ('password_reset', 'email_change')`),
  ],
);
