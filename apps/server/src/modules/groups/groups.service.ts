import {
  FEED_PAGE_SIZE,
  GROUP_MESSAGES,
  groupCreatedMessage,
  isUuid,
  type CreateGroupResponse,
  type GroupDetail,
  type GroupMapResponse,
  type GroupRole,
  type GroupsResponse,
  type MessageResponse,
  type OwnJoinRequestsResponse,
  type PagedPostsResponse,
  type RegenerateCodeResponse,
  type SharePostResponse,
} from '@cats/contracts';
import type { Database, Executor } from '../../db/client.ts';
import { SHARE_NEEDS_MEMBERSHIP, violatesConstraint } from '../../lib/db-errors.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../lib/http-errors.ts';
import { toUserSummary } from '../visibility/user-summary.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import type { EventBus } from '../../events/events.ts';
import { listAllPosts, listPosts } from '../posts/post-view.ts';
import * as repo from './groups.repository.ts';
import { codeBase, codeCandidates, generateCode } from './join-codes.ts';
import { joinThrottleKeys, type JoinThrottle } from './join-throttle.ts';

export interface GroupsDeps {
  db: Database;
  /** Counts wrong join codes per account and per address (join-throttle.ts). */
  joinThrottle: JoinThrottle;
  /** S3_PUBLIC_URL or undefined: where media URLs point. */
  publicBase: string | undefined;
  /** Requests, answers, removals and shares are told to others through events (notifications subscribes). */
  events: EventBus;
}

/** A group's map shows every located shared post; beyond this many, the newest. */
export const GROUP_MAP_MAX_POSTS = 1000;
/** Attempts at a free join code before giving up (2^40 codes per name: a collision is a freak). */
const CODE_ATTEMPTS = 12;

// ---------------------------------------------------------------------------------------------------
// Join codes (join-codes.ts), unique case-insensitively (database index)
// ---------------------------------------------------------------------------------------------------

export { codeBase, generateCode };

/**
 * Runs `write` with fresh codes until one is free. Each attempt is its own transaction: a unique
 * violation aborts the transaction it happens in.
 */
async function withFreeCode<T>(
  db: Database,
  name: string,
  write: (tx: Executor, code: string) => Promise<T>,
  avoid?: string,
): Promise<T> {
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
    const code = generateCode(name);
    if (avoid && code.toLowerCase() === avoid.toLowerCase()) continue;
    try {
      return await db.transaction((tx) => write(tx, code));
    } catch (err) {
      if (!repo.isUniqueViolation(err)) throw err;
    }
  }
  throw conflict('Could not find a free group code, please try again');
}

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

const normaliseId = (id: string) => id.toLowerCase();

/** The group as a member sees it; 404 for malformed and unknown ids and for non-members alike. */
async function memberGroup(db: Executor, viewer: AuthContext, rawGroupId: string) {
  if (!isUuid(rawGroupId)) throw notFound(GROUP_MESSAGES.groupNotFound);
  const group = await repo.findGroupForMember(db, normaliseId(rawGroupId), viewer.userId);
  if (!group) throw notFound(GROUP_MESSAGES.groupNotFound);
  return group;
}

async function ownedGroup(db: Executor, viewer: AuthContext, rawGroupId: string) {
  const group = await memberGroup(db, viewer, rawGroupId);
  if (group.role !== 'owner') throw forbidden(GROUP_MESSAGES.ownerOnly);
  return group;
}

async function detail(
  deps: GroupsDeps,
  viewer: AuthContext,
  group: { id: string; name: string; code: string; role: GroupRole },
): Promise<GroupDetail> {
  const members = await repo.listMembers(deps.db, group.id);
  const toUser = (row: { userId: string; username: string; profilePicKey: string | null }) =>
    toUserSummary(
      viewer,
      { id: row.userId, username: row.username, profilePicKey: row.profilePicKey },
      deps.publicBase,
    );
  const result: GroupDetail = {
    _id: group.id,
    groupName: group.name,
    // The demo account's password is public: a code shown to it would let anyone ask to join.
    ...(viewer.isDemo ? {} : { code: group.code }),
    role: group.role,
    members: members.map((m) => ({ user: toUser(m), role: m.role, joinedAt: m.joinedAt.toISOString() })),
  };
  if (group.role === 'owner') {
    const requests = await repo.listJoinRequests(deps.db, group.id);
    result.pendingRequests = requests.map((r) => ({
      user: toUser(r),
      requestedAt: r.requestedAt.toISOString(),
    }));
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------
// The Groups screen (spec sections 2 and 7)
// ---------------------------------------------------------------------------------------------------

export async function listGroups(deps: GroupsDeps, viewer: AuthContext): Promise<GroupsResponse> {
  const rows = await repo.listUserGroups(deps.db, viewer.userId);
  const summary = (r: repo.UserGroupRow) => ({ _id: r.id, groupName: r.name });
  return {
    ownedGroups: rows.filter((r) => r.role === 'owner').map(summary),
    memberGroups: rows.filter((r) => r.role !== 'owner').map(summary),
  };
}

/** The name comes validated (trimmed, 1 to 20 characters) by the route's schema. */
export async function createGroup(
  deps: GroupsDeps,
  viewer: AuthContext,
  name: string,
): Promise<CreateGroupResponse> {
  const created = await withFreeCode(deps.db, name, async (tx, code) => {
    const { id } = await repo.insertGroup(tx, { name, code, ownerId: viewer.userId });
    await repo.insertMember(tx, id, viewer.userId, 'owner');
    return { id, code };
  });
  return {
    message: groupCreatedMessage(name, created.code),
    group: { _id: created.id, groupName: name, code: created.code },
    ...(await listGroups(deps, viewer)),
  };
}

/**
 * A join request for the owner to answer; codes are forgiving to type (codeCandidates). Wrong codes
 * count against the account and the address it comes from (join-throttle.ts); while either is over
 * its limit every attempt is refused, a right code too, so a guesser learns nothing from a 429.
 */
export async function requestToJoin(
  deps: GroupsDeps,
  viewer: AuthContext,
  code: string,
  address: string,
): Promise<MessageResponse> {
  const keys = joinThrottleKeys(viewer.userId, address);
  const waitMs = await deps.joinThrottle.take(keys);
  if (waitMs > 0) {
    throw new HttpError(429, GROUP_MESSAGES.tooManyWrongCodes, {
      'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
    });
  }
  const group = await repo.findGroupByCode(deps.db, codeCandidates(code)).catch(async (err: unknown) => {
    await deps.joinThrottle.refund(keys);
    throw err;
  });
  if (!group) throw badRequest(GROUP_MESSAGES.codeNotFound);
  await deps.joinThrottle.refund(keys);
  const role = await repo.findRole(deps.db, group.id, viewer.userId);
  if (role === 'owner') throw badRequest(GROUP_MESSAGES.alreadyOwner);
  if (role === 'member') throw badRequest(GROUP_MESSAGES.alreadyMember);
  // The owner is told in the request's transaction (issue 25): the entry exists exactly while it does.
  const sent = await deps.db.transaction(async (tx) => {
    if (!(await repo.insertJoinRequest(tx, group.id, viewer.userId))) return false;
    await deps.events.emit('group.joinRequested', {
      tx,
      groupId: group.id,
      ownerId: group.ownerId,
      requesterId: viewer.userId,
    });
    return true;
  });
  if (!sent) throw badRequest(GROUP_MESSAGES.alreadyRequested);
  return { message: GROUP_MESSAGES.requestSent };
}

/** The caller's requests still waiting for an answer, so the Groups screen can show them (issue 28). */
export async function listOwnRequests(
  deps: GroupsDeps,
  viewer: AuthContext,
): Promise<OwnJoinRequestsResponse> {
  const rows = await repo.listOwnJoinRequests(deps.db, viewer.userId);
  return {
    requests: rows.map((r) => ({
      group: { _id: r.groupId, groupName: r.groupName },
      requestedAt: r.requestedAt.toISOString(),
    })),
  };
}

/**
 * The caller withdraws their own request. The owner's entry about it goes in the same transaction, as
 * when the owner answers it: a withdrawn request leaves nothing to act on (issue 25).
 */
export async function cancelRequest(
  deps: GroupsDeps,
  viewer: AuthContext,
  rawGroupId: string,
): Promise<MessageResponse> {
  if (!isUuid(rawGroupId)) throw notFound(GROUP_MESSAGES.ownRequestNotFound);
  const groupId = normaliseId(rawGroupId);
  const cancelled = await deps.db.transaction(async (tx) => {
    if (!(await repo.deleteJoinRequest(tx, groupId, viewer.userId))) return false;
    await deps.events.emit('group.joinRequestWithdrawn', { tx, groupId, requesterId: viewer.userId });
    return true;
  });
  if (!cancelled) throw notFound(GROUP_MESSAGES.ownRequestNotFound);
  return { message: GROUP_MESSAGES.requestCancelled };
}

// ---------------------------------------------------------------------------------------------------
// /groups/{groupId}
// ---------------------------------------------------------------------------------------------------

export async function getGroup(deps: GroupsDeps, viewer: AuthContext, groupId: string): Promise<GroupDetail> {
  return detail(deps, viewer, await memberGroup(deps.db, viewer, groupId));
}

export async function answerRequest(
  deps: GroupsDeps,
  viewer: AuthContext,
  groupId: string,
  rawUserId: string,
  answer: 'accept' | 'decline',
): Promise<{ message: string; group: GroupDetail }> {
  const group = await ownedGroup(deps.db, viewer, groupId);
  if (!isUuid(rawUserId)) throw notFound(GROUP_MESSAGES.requestNotFound);
  const userId = normaliseId(rawUserId);
  const answered = await deps.db.transaction(async (tx) => {
    if (!(await repo.deleteJoinRequest(tx, group.id, userId))) return false;
    if (answer === 'accept') await repo.insertMember(tx, group.id, userId, 'member');
    // The request is handled: its entry goes, and the requester hears the answer.
    await deps.events.emit('group.joinRequestAnswered', {
      tx,
      groupId: group.id,
      ownerId: viewer.userId,
      requesterId: userId,
      accepted: answer === 'accept',
    });
    return true;
  });
  if (!answered) throw notFound(GROUP_MESSAGES.requestNotFound);
  return {
    message: answer === 'accept' ? GROUP_MESSAGES.requestAccepted : GROUP_MESSAGES.requestDeclined,
    group: await detail(deps, viewer, group),
  };
}

/**
 * The owner removes a member, or a member removes themself (leaving). Either way the member's posts
 * stop being shared with the group: their exact locations must not stay with people they left. The
 * database drops the shares with the membership (post_groups_membership_fk), also those of a share
 * that was being written at the same moment.
 */
export async function removeMember(
  deps: GroupsDeps,
  viewer: AuthContext,
  groupId: string,
  rawUserId: string,
): Promise<{ message: string; group?: GroupDetail }> {
  const group = await memberGroup(deps.db, viewer, groupId);
  if (!isUuid(rawUserId)) throw notFound(GROUP_MESSAGES.memberNotFound);
  const userId = normaliseId(rawUserId);
  const leaving = userId === viewer.userId;
  if (leaving && group.role === 'owner') throw badRequest(GROUP_MESSAGES.ownerCannotLeave);
  if (!leaving && group.role !== 'owner') throw forbidden(GROUP_MESSAGES.ownerOnly);
  const removed = await deps.db.transaction(async (tx) => {
    if (!(await repo.deleteMember(tx, group.id, userId))) return false;
    // Their shares went with the membership; the entries about them go, and one removed is told.
    await deps.events.emit('group.memberRemoved', {
      tx,
      groupId: group.id,
      memberId: userId,
      removedBy: viewer.userId,
    });
    return true;
  });
  if (!removed) throw notFound(GROUP_MESSAGES.memberNotFound);
  if (leaving) return { message: GROUP_MESSAGES.leftGroup };
  return { message: GROUP_MESSAGES.memberRemoved, group: await detail(deps, viewer, group) };
}

/** A new code; the old one stops working at once (pending requests stay). */
export async function regenerateCode(
  deps: GroupsDeps,
  viewer: AuthContext,
  groupId: string,
): Promise<RegenerateCodeResponse> {
  const group = await ownedGroup(deps.db, viewer, groupId);
  const code = await withFreeCode(
    deps.db,
    group.name,
    async (tx, next) => {
      await repo.updateCode(tx, group.id, next);
      return next;
    },
    group.code,
  );
  return { message: GROUP_MESSAGES.codeRegenerated, code };
}

export async function deleteGroup(
  deps: GroupsDeps,
  viewer: AuthContext,
  groupId: string,
): Promise<MessageResponse> {
  const group = await ownedGroup(deps.db, viewer, groupId);
  // Members, requests and shares go with it (foreign keys cascade); the posts themselves stay.
  await repo.deleteGroup(deps.db, group.id);
  return { message: GROUP_MESSAGES.groupDeleted };
}

// ---------------------------------------------------------------------------------------------------
// The group's pictures: members see the exact spot of those whose location is on (location-rule.ts)
// ---------------------------------------------------------------------------------------------------

export async function groupPosts(
  deps: GroupsDeps,
  viewer: AuthContext,
  groupId: string,
  paging: { cursor?: string | undefined; page?: number | undefined },
): Promise<PagedPostsResponse> {
  const group = await memberGroup(deps.db, viewer, groupId);
  return listPosts(
    deps.db,
    viewer,
    { groupId: group.id },
    {
      publicBase: deps.publicBase,
      page: paging.page ?? 1,
      pageSize: FEED_PAGE_SIZE,
      cursor: paging.cursor,
    },
  );
}

export async function groupMap(
  deps: GroupsDeps,
  viewer: AuthContext,
  groupId: string,
): Promise<GroupMapResponse> {
  const group = await memberGroup(deps.db, viewer, groupId);
  const posts = await listAllPosts(
    deps.db,
    viewer,
    { groupId: group.id, located: true },
    {
      publicBase: deps.publicBase,
      max: GROUP_MAP_MAX_POSTS,
    },
  );
  return { posts };
}

/** Shares the caller's own post with exactly these groups (all of which they must belong to). */
export async function setPostGroups(
  deps: GroupsDeps,
  viewer: AuthContext,
  rawPostId: string,
  rawGroupIds: readonly string[],
): Promise<SharePostResponse> {
  if (!isUuid(rawPostId)) throw notFound(GROUP_MESSAGES.postNotFound);
  const postId = normaliseId(rawPostId);
  const owner = await repo.findPostOwner(deps.db, postId);
  if (!owner) throw notFound(GROUP_MESSAGES.postNotFound);
  if (owner !== viewer.userId) throw forbidden(GROUP_MESSAGES.notPostOwner);
  if (!rawGroupIds.every(isUuid)) throw badRequest(GROUP_MESSAGES.notGroupMember);
  const groupIds = [...new Set(rawGroupIds.map(normaliseId))];
  const allowed = new Set(await repo.memberGroupIds(deps.db, viewer.userId, groupIds));
  if (groupIds.some((id) => !allowed.has(id))) throw badRequest(GROUP_MESSAGES.notGroupMember);
  try {
    return await deps.db.transaction(async (tx) => {
      const changed = await repo.replacePostGroups(tx, postId, viewer.userId, groupIds);
      // The members of the groups it is newly shared with are told; unsharing takes back what was said.
      await deps.events.emit('post.shared', { tx, postId, authorId: viewer.userId, groupIds: changed.added });
      await deps.events.emit('post.unshared', { tx, postId, groupIds: changed.removed });
      return { groupIds: await repo.listPostGroupIds(tx, postId) };
    });
  } catch (err) {
    // Removed from one of the groups since the check above: the database refused the share.
    if (violatesConstraint(err, SHARE_NEEDS_MEMBERSHIP)) throw badRequest(GROUP_MESSAGES.notGroupMember);
    throw err;
  }
}
