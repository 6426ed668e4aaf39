import type { Notification } from '@cats/contracts';
import { Message, useLanguage, useTranslate } from '../../../i18n/message.tsx';
import { formatMoment } from '../../../lib/relative-time.ts';

/**
 * What happened, as one whole sentence per type and count (issue 25). Every variant is written out in
 * full, never put together from pieces, so that each can be translated as a whole (issue 28): names of
 * people, groups and cats are the sentence's arguments, shown in bold.
 */
export function NotificationText({ notification: n }: { notification: Notification }) {
  const t = useTranslate();
  // When an entry names nobody (an account since deleted): the sentence still reads whole.
  const someone = t({ id: 'notifications.someone', defaultMessage: 'Someone' });
  const name = <strong className="notification__name">{n.actors[0]?.username ?? someone}</strong>;
  const group = <strong className="notification__group">{n.group?.name ?? ''}</strong>;
  const cat = <strong className="notification__cat">{n.cat?.name ?? ''}</strong>;
  const others = Math.max(0, n.actorCount - 1);

  switch (n.type) {
    case 'like':
      return others === 0 ? (
        <Message id="notifications.like" defaultMessage="{name} liked your picture" values={{ name }} />
      ) : (
        <Message
          id="notifications.like.grouped"
          defaultMessage="{name} and {count, plural, one {# other} other {# others}} liked your picture"
          values={{ name, count: others }}
        />
      );
    case 'comment':
      return n.comment ? (
        <Message
          id="notifications.comment.excerpt"
          defaultMessage="{name} commented on your picture: “{excerpt}”"
          values={{ name, excerpt: n.comment.excerpt }}
        />
      ) : (
        <Message
          id="notifications.comment"
          defaultMessage="{name} commented on your picture"
          values={{ name }}
        />
      );
    case 'reply':
      return (
        <Message
          id="notifications.reply"
          defaultMessage="{name} replied on a picture you commented on"
          values={{ name }}
        />
      );
    case 'join_request':
      return (
        <Message
          id="notifications.joinRequest"
          defaultMessage="{name} asked to join {group}"
          values={{ name, group }}
        />
      );
    case 'request_accepted':
      return (
        <Message
          id="notifications.requestAccepted"
          defaultMessage="You are now a member of {group}"
          values={{ group }}
        />
      );
    case 'request_declined':
      return (
        <Message
          id="notifications.requestDeclined"
          defaultMessage="Your request to join {group} was declined"
          values={{ group }}
        />
      );
    case 'removed_from_group':
      return (
        <Message
          id="notifications.removedFromGroup"
          defaultMessage="You were removed from {group}"
          values={{ group }}
        />
      );
    case 'group_share':
      return (
        <Message
          id="notifications.groupShare"
          defaultMessage="{name} shared a picture with {group}"
          values={{ name, group }}
        />
      );
    case 'cat_sighting':
      return (
        <Message
          id="notifications.catSighting"
          defaultMessage="{name} spotted {cat}"
          values={{ name, cat }}
        />
      );
    case 'cat_missing_nearby':
      return (
        <Message
          id="notifications.catMissingNearby"
          defaultMessage="{cat} is missing near your home area"
          values={{ cat }}
        />
      );
    case 'cat_found':
      return <Message id="notifications.catFound" defaultMessage="{cat} is back home" values={{ cat }} />;
    case 'missing_report':
      return (
        <Message
          id="notifications.missingReport"
          defaultMessage="{name} saw {cat}, who is missing"
          values={{ name, cat }}
        />
      );
    case 'cat_suggestion':
      return (
        <Message
          id="notifications.catSuggestion"
          defaultMessage="{name} suggests your picture shows {cat}"
          values={{ name, cat }}
        />
      );
    case 'cat_suggestion_accepted':
      return (
        <Message
          id="notifications.catSuggestionAccepted"
          defaultMessage="{name} agreed that their picture shows {cat}"
          values={{ name, cat }}
        />
      );
    case 'moderation_decision':
      return n.moderation ? <DecisionText moderation={n.moderation} /> : null;
    case 'appeal_decided':
      return n.moderation?.appealOutcome === 'overturned' ? (
        <Message
          id="notifications.appeal.overturned"
          defaultMessage="Your appeal was accepted: the decision is undone"
        />
      ) : (
        <Message
          id="notifications.appeal.upheld"
          defaultMessage="Your appeal was declined: the decision stands"
        />
      );
    case 'report_outcome':
      return n.moderation ? <ReportOutcomeText moderation={n.moderation} /> : null;
  }
}

type Moderation = NonNullable<Notification['moderation']>;

/** A moderator's decision about the reader's content or account (issue 27); Settings has the reasons. */
function DecisionText({ moderation: m }: { moderation: Moderation }) {
  useLanguage(); // the date below is written in the reader's language: follow it
  if (m.action === 'restore')
    return (
      <Message
        id="notifications.decision.restore"
        defaultMessage="A moderator undid an earlier decision about your content"
      />
    );
  if (m.action === 'warn')
    return (
      <Message id="notifications.decision.warn" defaultMessage="You received a warning from the moderators" />
    );
  if (m.action === 'suspend') {
    if (!m.suspendedUntil)
      return <Message id="notifications.decision.suspend" defaultMessage="Your account is suspended" />;
    const until = formatMoment(m.suspendedUntil);
    return (
      <Message
        id="notifications.decision.suspendUntil"
        defaultMessage="Your account is suspended until {date}"
        values={{ date: <time dateTime={m.suspendedUntil}>{until}</time> }}
      />
    );
  }
  if (m.action === 'strip_location')
    return (
      <Message
        id="notifications.decision.stripLocation"
        defaultMessage="A moderator hid the location of your picture"
      />
    );
  if (m.targetType === 'comment')
    return (
      <Message id="notifications.decision.removeComment" defaultMessage="A moderator removed your comment" />
    );
  if (m.targetType === 'cat')
    return (
      <Message
        id="notifications.decision.removeCat"
        defaultMessage="A moderator removed a cat page you created"
      />
    );
  return <Message id="notifications.decision.removePost" defaultMessage="A moderator removed your picture" />;
}

/** What came of something the reader reported (issue 27: 'We removed the post you reported'). */
function ReportOutcomeText({ moderation: m }: { moderation: Moderation }) {
  switch (m.action) {
    case 'remove':
      if (m.targetType === 'comment')
        return (
          <Message
            id="notifications.report.removeComment"
            defaultMessage="We removed the comment you reported"
          />
        );
      if (m.targetType === 'cat')
        return (
          <Message
            id="notifications.report.removeCat"
            defaultMessage="We removed the cat page you reported"
          />
        );
      return (
        <Message id="notifications.report.removePost" defaultMessage="We removed the post you reported" />
      );
    case 'strip_location':
      return (
        <Message
          id="notifications.report.stripLocation"
          defaultMessage="We hid the location of the post you reported"
        />
      );
    case 'warn':
      return (
        <Message
          id="notifications.report.warn"
          defaultMessage="We warned the person behind what you reported"
        />
      );
    case 'suspend':
      return (
        <Message
          id="notifications.report.suspend"
          defaultMessage="We suspended the account behind what you reported"
        />
      );
    default:
      return (
        <Message
          id="notifications.report.noAction"
          defaultMessage="We reviewed your report and found no rule broken"
        />
      );
  }
}
