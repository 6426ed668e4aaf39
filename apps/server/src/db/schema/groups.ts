import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { posts } from './posts.ts';
import { users } from './users.ts';

export const groupRole = pgEnum('group_role', ['owner', 'member']);

export const groups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Join code: Name-XXXX-XXXX (join-codes.ts); older groups may still have the London#1234 shape. */
    code: text('code').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('groups_code_lower_idx').on(sql`lower(${t.code})`),
    index('groups_owner_idx').on(t.ownerId),
    check('groups_name_length', sql`char_length(${t.name}) between 1 and 20`),
  ],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: groupRole('role').notNull().default('member'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user_idx').on(t.userId)],
);

export const joinRequests = pgTable(
  'join_requests',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('join_requests_user_idx').on(t.userId)],
);

/**
 * A post shared with a group. Only a member may share their post with a group, and only while they are
 * one (issue 23): the share names its author and points at the author's membership, so the database
 * refuses a share by a non-member and drops the shares with the membership. A share racing a removal
 * either waits for the removal and fails, or commits first and is dropped by it; membership is checked
 * inside the share's own transaction, whatever the code around it does.
 */
export const postGroups = pgTable(
  'post_groups',
  {
    postId: uuid('post_id').notNull(),
    groupId: uuid('group_id').notNull(),
    /** The post's author (posts.user_id): the member whose membership the share depends on. */
    userId: uuid('user_id').notNull(),
    sharedAt: timestamp('shared_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.groupId] }),
    index('post_groups_group_idx').on(t.groupId, t.sharedAt),
    foreignKey({
      name: 'post_groups_post_author_fk',
      columns: [t.postId, t.userId],
      foreignColumns: [posts.id, posts.userId],
    }).onDelete('cascade'),
    foreignKey({
      name: 'post_groups_membership_fk',
      columns: [t.groupId, t.userId],
      foreignColumns: [groupMembers.groupId, groupMembers.userId],
    }).onDelete('cascade'),
  ],
);
