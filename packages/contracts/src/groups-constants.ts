// Constants and plain functions only: no zod here, so the web app can import them without loading
// the schema library (docs/performance.md). groups.ts re-exports them beside its schemas.

/** Spec section 9: group name at most 20 characters (counted as characters, like the database). */
export const GROUP_NAME_MAX = 20;
/**
 * The spec's example of a join code, shown as the join form's placeholder. Real codes are the name
 * without spaces and two groups of four characters (CalleLunaCats-7KQ4-M2XD, issue 23); codes of
 * older groups in the example's shape keep working until their owner makes a new one.
 */
export const GROUP_CODE_EXAMPLE = 'London#1234';
export const GROUP_CODE_MAX = 60;

export const GROUP_MESSAGES = {
  nameRequired: 'Group name is required',
  nameTooLong: `Group name must be at most ${GROUP_NAME_MAX} characters`,
  nameInvisible: 'Group name must contain a visible character',
  codeRequired: 'Group code is required',
  codeNotFound: 'No group found with that code',
  tooManyWrongCodes: 'Too many wrong group codes. Please wait a few minutes before trying again.',
  alreadyMember: 'You are already a member of that group',
  alreadyOwner: 'You are the owner of that group',
  alreadyRequested: 'You have already asked to join that group; its owner has not answered yet',
  requestSent: 'Request sent. The owner of the group will accept or decline it.',
  groupNotFound: 'Group not found',
  ownerOnly: 'Only the owner of the group can do that',
  requestNotFound: 'No pending request from that user',
  ownRequestNotFound: 'You have no pending request to join that group',
  requestCancelled: 'Request cancelled',
  memberNotFound: 'That user is not a member of the group',
  ownerCannotLeave: 'The owner cannot leave the group; delete the group instead',
  requestAccepted: 'Request accepted',
  requestDeclined: 'Request declined',
  memberRemoved: 'Member removed',
  leftGroup: 'You have left the group',
  groupDeleted: 'Group deleted',
  codeRegenerated: 'New code created; the old one no longer works',
  notGroupMember: 'You can only share with groups you belong to',
  notPostOwner: 'Only the owner of a post can share it',
  postNotFound: 'Post not found',
} as const;

export const groupCreatedMessage = (name: string, code: string) =>
  `Group ${name} created. Share the code ${code} with friends so they can ask to join.`;
