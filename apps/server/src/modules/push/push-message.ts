import type { NotificationRow } from '../notifications/notifications.repository.ts';
import { linkOf } from '../notifications/notifications.service.ts';

/**
 * What a push carries to the service worker (apps/web/public/sw-push.js), encrypted for the browser
 * alone, but shown on a lock screen: a sentence, a short excerpt, a page of the app. Never a
 * location, a caption, or a whole comment.
 */
export interface PushMessage {
  title: string;
  body: string;
  /** The page a tap opens: the entry's link, as in the notification centre. */
  url: string;
  /** A newer push with the same tag replaces the shown one (a like entry that gathered another like). */
  tag: string;
  icon: string;
}

/** A comment in a push is a glimpse: the notification centre and the post show it whole. */
export const PUSH_EXCERPT_LENGTH = 80;
export const PUSH_ICON = '/icons/notification-192.png';

function glimpse(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= PUSH_EXCERPT_LENGTH ? line : `${line.slice(0, PUSH_EXCERPT_LENGTH - 1).trimEnd()}…`;
}

/** 'mariposa', 'mariposa and tom', 'mariposa and 4 others': who the entry names, newest first. */
function whoDidIt(row: NotificationRow): string {
  const first = row.actors[0]?.username ?? 'Someone';
  if (row.actorCount <= 1) return first;
  if (row.actorCount === 2 && row.actors[1]) return `${first} and ${row.actors[1].username}`;
  return `${first} and ${row.actorCount - 1} others`;
}

/** The sentence of each type, in one place (the web app's notification centre words its own). */
function sentence(row: NotificationRow): { title: string; body: string } {
  const who = whoDidIt(row);
  const group = row.group?.name ?? '';
  const cat = row.cat?.name ?? '';
  const comment = row.comment ? glimpse(row.comment.body) : '';
  switch (row.type) {
    case 'like':
      return { title: `${who} liked your picture`, body: '' };
    case 'comment':
      return { title: `${who} commented on your picture`, body: comment };
    case 'reply':
      return { title: `${who} also commented on a picture you commented on`, body: comment };
    case 'join_request':
      return { title: `${who} asks to join ${group}`, body: 'Open the group to accept or decline.' };
    case 'request_accepted':
      return { title: `Your request to join ${group} was accepted`, body: '' };
    case 'request_declined':
      return { title: `Your request to join ${group} was declined`, body: '' };
    case 'removed_from_group':
      return { title: `You were removed from ${group}`, body: '' };
    case 'group_share':
      return { title: `${who} shared a picture with ${group}`, body: '' };
    case 'cat_sighting':
      return { title: `${who} spotted ${cat}`, body: '' };
    case 'cat_missing_nearby':
      return {
        title: `${cat} is missing near you`,
        body: 'Open the alert to see where and when they were last seen.',
      };
    case 'cat_found':
      return { title: `${cat} is back home`, body: 'Thank you for looking out.' };
    case 'missing_report':
      return { title: `${who} saw ${cat}`, body: 'Open the cat’s page to see when and where.' };
    case 'cat_suggestion':
      return { title: `${who} suggests your picture shows ${cat}`, body: 'Open it to accept or decline.' };
    case 'cat_suggestion_accepted':
      return { title: `${who} agreed that their picture shows ${cat}`, body: '' };
    case 'moderation_decision':
      return { title: decisionTitle(row.moderation!), body: 'Open it to read why and how to appeal.' };
    case 'appeal_decided':
      return row.moderation!.appealOutcome === 'overturned'
        ? { title: 'Your appeal was accepted', body: 'The decision is undone.' }
        : { title: 'Your appeal was declined', body: 'The decision stands.' };
    case 'report_outcome':
      return { title: reportOutcomeTitle(row.moderation!), body: 'Thank you for your report.' };
  }
}

type Moderation = NonNullable<NotificationRow['moderation']>;

/** A decision about the recipient's content or account, in whole sentences (issue 27). */
function decisionTitle(m: Moderation): string {
  if (m.action === 'restore') return 'A moderator undid an earlier decision about your content';
  if (m.action === 'warn') return 'You received a warning from the moderators';
  if (m.action === 'suspend') return 'Your account is suspended';
  if (m.action === 'strip_location') return 'A moderator hid the location of your picture';
  switch (m.targetType) {
    case 'post':
      return 'A moderator removed your picture';
    case 'comment':
      return 'A moderator removed your comment';
    case 'cat':
      return 'A moderator removed a cat page you created';
    case 'user':
      return 'A moderator acted on your account';
  }
}

/** What came of a report, as the reporter is told it (issue 27: 'We removed the post you reported'). */
function reportOutcomeTitle(m: Moderation): string {
  switch (m.action) {
    case 'remove':
      if (m.targetType === 'comment') return 'We removed the comment you reported';
      if (m.targetType === 'cat') return 'We removed the cat page you reported';
      return 'We removed the post you reported';
    case 'strip_location':
      return 'We hid the location of the post you reported';
    case 'warn':
      return 'We warned the person behind what you reported';
    case 'suspend':
      return 'We suspended the account behind what you reported';
    default:
      return 'We reviewed your report and found no rule broken';
  }
}

export function pushMessage(row: NotificationRow): PushMessage {
  return {
    ...sentence(row),
    url: linkOf(row),
    tag: `notification-${row.id}`,
    icon: PUSH_ICON,
  };
}

/**
 * The push service's Topic header: a newer message with the same topic replaces one it still holds
 * for an offline browser. At most 32 URL-safe characters: the entry's id without its dashes.
 */
export const pushTopic = (row: NotificationRow): string => row.id.replaceAll('-', '');
