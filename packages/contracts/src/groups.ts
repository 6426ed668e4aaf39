import { z } from 'zod';
import { postSchema } from './posts.ts';
import { userSummarySchema } from './users.ts';
import { hasVisibleCharacter } from './common-constants.ts';
import { GROUP_NAME_MAX, GROUP_CODE_MAX, GROUP_MESSAGES } from './groups-constants.ts';

export * from './groups-constants.ts';

export const groupRoleSchema = z.enum(['owner', 'member']);
export type GroupRole = z.infer<typeof groupRoleSchema>;

/**
 * Trimmed, required, at least one visible character, at most 20 characters (code points, as
 * PostgreSQL's char_length counts them).
 */
export const groupNameSchema = z
  .string({ error: GROUP_MESSAGES.nameRequired })
  .trim()
  .min(1, GROUP_MESSAGES.nameRequired)
  // Zero-width spaces, braille blanks or Hangul fillers only: a group that looks nameless (issue 23).
  .refine(hasVisibleCharacter, { message: GROUP_MESSAGES.nameInvisible, abort: true })
  .refine((name) => [...name].length <= GROUP_NAME_MAX, GROUP_MESSAGES.nameTooLong);

export const groupCodeSchema = z
  .string({ error: GROUP_MESSAGES.codeRequired })
  .trim()
  .min(1, GROUP_MESSAGES.codeRequired)
  .max(GROUP_CODE_MAX, GROUP_MESSAGES.codeNotFound);

/** Spec section 7: the forms send {submitData}: the name (create) or the code (join). */
export const createGroupRequestSchema = z.object({ submitData: groupNameSchema });
export type CreateGroupRequest = z.infer<typeof createGroupRequestSchema>;
export const joinGroupRequestSchema = z.object({ submitData: groupCodeSchema });
export type JoinGroupRequest = z.infer<typeof joinGroupRequestSchema>;

export const groupSummarySchema = z.object({ _id: z.string(), groupName: z.string() });
export type GroupSummary = z.infer<typeof groupSummarySchema>;

/** GET /api/groups; memberGroups holds the groups the user belongs to without owning them. */
export const groupsResponseSchema = z.object({
  ownedGroups: z.array(groupSummarySchema),
  memberGroups: z.array(groupSummarySchema),
});
export type GroupsResponse = z.infer<typeof groupsResponseSchema>;

export const createGroupResponseSchema = groupsResponseSchema.extend({
  message: z.string(),
  /** The new group, with its join code. */
  group: groupSummarySchema.extend({ code: z.string() }),
});
export type CreateGroupResponse = z.infer<typeof createGroupResponseSchema>;

export const groupMemberSchema = z.object({
  user: userSummarySchema,
  role: groupRoleSchema,
  joinedAt: z.string(),
});
export type GroupMember = z.infer<typeof groupMemberSchema>;

export const joinRequestSchema = z.object({ user: userSummarySchema, requestedAt: z.string() });
export type JoinRequest = z.infer<typeof joinRequestSchema>;

/** GET /api/groups/{groupId}: members only. */
export const groupDetailSchema = z.object({
  _id: z.string(),
  groupName: z.string(),
  /** Absent for the shared demo account: its password is public, so a code it saw would be everyone's. */
  code: z.string().optional(),
  /** The caller's role. */
  role: groupRoleSchema,
  /** Owner first, then by joining date. */
  members: z.array(groupMemberSchema),
  /** Join requests waiting for an answer; only present for the owner. */
  pendingRequests: z.array(joinRequestSchema).optional(),
});
export type GroupDetail = z.infer<typeof groupDetailSchema>;

/** Accept, decline and remove answer with the group as it now is. */
export const groupUpdateResponseSchema = z.object({ message: z.string(), group: groupDetailSchema });
export type GroupUpdateResponse = z.infer<typeof groupUpdateResponseSchema>;

/** Removing a member answers the updated group; leaving (removing oneself) answers only the message. */
export const removeMemberResponseSchema = z.object({
  message: z.string(),
  group: groupDetailSchema.optional(),
});
export type RemoveMemberResponse = z.infer<typeof removeMemberResponseSchema>;

export const regenerateCodeResponseSchema = z.object({ message: z.string(), code: z.string() });
export type RegenerateCodeResponse = z.infer<typeof regenerateCodeResponseSchema>;

export const groupParamsSchema = z.object({ groupId: z.string() });
export const groupUserParamsSchema = z.object({ groupId: z.string(), userId: z.string() });

export const groupPostsQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
});

/** GET /api/groups/{groupId}/map: every shared post whose location is on; exact for members but demo. */
export const groupMapResponseSchema = z.object({ posts: z.array(postSchema) });
export type GroupMapResponse = z.infer<typeof groupMapResponseSchema>;

/** PUT /api/posts/{postId}/groups: the full set of groups the post is shared with afterwards. */
export const sharePostResponseSchema = z.object({ groupIds: z.array(z.string()) });
export type SharePostResponse = z.infer<typeof sharePostResponseSchema>;

/** One of the caller's own join requests that the group's owner has not answered yet (issue 28, point 7). */
export const ownJoinRequestSchema = z.object({
  group: groupSummarySchema,
  requestedAt: z.string(),
});
export type OwnJoinRequest = z.infer<typeof ownJoinRequestSchema>;

/** GET /api/groups/requests: the caller's pending join requests, newest first. */
export const ownJoinRequestsResponseSchema = z.object({ requests: z.array(ownJoinRequestSchema) });
export type OwnJoinRequestsResponse = z.infer<typeof ownJoinRequestsResponseSchema>;
