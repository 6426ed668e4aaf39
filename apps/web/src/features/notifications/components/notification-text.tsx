import type { Notification } from '@cats/contracts';

/** When an entry names nobody (an account since deleted): the sentence still reads whole. */
const SOMEONE = 'Someone';

/**
 * What happened, as one whole sentence per type and count (issue 25). Every variant is written out in
 * full, never put together from pieces, so that each can be translated as a whole (issue 28).
 */
export function NotificationText({ notification: n }: { notification: Notification }) {
  const name = <strong className="notification__name">{n.actors[0]?.username ?? SOMEONE}</strong>;
  const group = <strong className="notification__group">{n.group?.name ?? ''}</strong>;
  const cat = <strong className="notification__cat">{n.cat?.name ?? ''}</strong>;
  const others = Math.max(0, n.actorCount - 1);

  switch (n.type) {
    case 'like':
      if (others === 0) return <>{name} liked your picture</>;
      if (others === 1) return <>{name} and 1 other liked your picture</>;
      return (
        <>
          {name} and {others} others liked your picture
        </>
      );
    case 'comment':
      return n.comment ? (
        <>
          {name} commented on your picture: “{n.comment.excerpt}”
        </>
      ) : (
        <>{name} commented on your picture</>
      );
    case 'reply':
      return <>{name} replied on a picture you commented on</>;
    case 'join_request':
      return (
        <>
          {name} asked to join {group}
        </>
      );
    case 'request_accepted':
      return <>You are now a member of {group}</>;
    case 'request_declined':
      return <>Your request to join {group} was declined</>;
    case 'removed_from_group':
      return <>You were removed from {group}</>;
    case 'group_share':
      return (
        <>
          {name} shared a picture with {group}
        </>
      );
    case 'cat_sighting':
      return (
        <>
          {name} spotted {cat}
        </>
      );
    case 'cat_missing_nearby':
      return <>{cat} is missing near your home area</>;
    case 'cat_found':
      return <>{cat} is back home</>;
    case 'missing_report':
      return (
        <>
          {name} saw {cat}, who is missing
        </>
      );
    case 'cat_suggestion':
      return (
        <>
          {name} suggests your picture shows {cat}
        </>
      );
    case 'cat_suggestion_accepted':
      return (
        <>
          {name} agreed that their picture shows {cat}
        </>
      );
    case 'moderation_decision':
      return n.moderation ? <DecisionText moderation={n.moderation} /> : null;
    case 'appeal_decided':
      return n.moderation?.appealOutcome === 'overturned' ? (
        <>Your appeal was accepted: the decision is undone</>
      ) : (
        <>Your appeal was declined: the decision stands</>
      );
    case 'report_outcome':
      return n.moderation ? <ReportOutcomeText moderation={n.moderation} /> : null;
  }
}

type Moderation = NonNullable<Notification['moderation']>;

/** A moderator's decision about the reader's content or account (issue 27); Settings has the reasons. */
function DecisionText({ moderation: m }: { moderation: Moderation }) {
  if (m.action === 'restore') return <>A moderator undid an earlier decision about your content</>;
  if (m.action === 'warn') return <>You received a warning from the moderators</>;
  if (m.action === 'suspend') {
    return m.suspendedUntil ? (
      <>
        Your account is suspended until{' '}
        <time dateTime={m.suspendedUntil}>{new Date(m.suspendedUntil).toLocaleString()}</time>
      </>
    ) : (
      <>Your account is suspended</>
    );
  }
  if (m.action === 'strip_location') return <>A moderator hid the location of your picture</>;
  if (m.targetType === 'comment') return <>A moderator removed your comment</>;
  if (m.targetType === 'cat') return <>A moderator removed a cat page you created</>;
  return <>A moderator removed your picture</>;
}

/** What came of something the reader reported (issue 27: 'We removed the post you reported'). */
function ReportOutcomeText({ moderation: m }: { moderation: Moderation }) {
  switch (m.action) {
    case 'remove':
      if (m.targetType === 'comment') return <>We removed the comment you reported</>;
      if (m.targetType === 'cat') return <>We removed the cat page you reported</>;
      return <>We removed the post you reported</>;
    case 'strip_location':
      return <>We hid the location of the post you reported</>;
    case 'warn':
      return <>We warned the person behind what you reported</>;
    case 'suspend':
      return <>We suspended the account behind what you reported</>;
    default:
      return <>We reviewed your report and found no rule broken</>;
  }
}
