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
  }
}
