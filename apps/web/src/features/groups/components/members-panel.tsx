import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { GroupDetail, GroupMember } from '@cats/contracts';
import { Button } from '../../../components/button.tsx';
import { PostAvatar } from '../../../components/post/post-avatar.tsx';
import { useAuth } from '../../../lib/auth-store.ts';
import { useAnswerRequest, useRemoveMember } from '../api/manage-group.ts';
import { groupErrorMessage } from '../api/errors.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { RoleTag } from './role-tag.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/** The number beside a panel's title, in its badge. */
const countBadge = (chunks: ReactNode[]) => <span className="groups-panel__count">{chunks}</span>;

interface PanelProps {
  group: GroupDetail;
  onResult: (message: string) => void;
}

/** Pending join requests with Accept and Decline (owner only). */
export function RequestsPanel({ group, onResult }: PanelProps) {
  const answer = useAnswerRequest(group._id);
  const t = useTranslate();
  const requests = group.pendingRequests;
  if (!requests) return null;
  return (
    <section className="groups-panel card" aria-labelledby="groups-requests-title">
      <h2 id="groups-requests-title" className="groups-panel__title">
        <Message
          id="groups.requests.title"
          defaultMessage="Pending requests <badge>{count}</badge>"
          values={{ count: requests.length, badge: countBadge }}
        />
      </h2>
      {requests.length === 0 && (
        <p className="muted groups-panel__empty">
          <Message id="groups.requests.empty" defaultMessage="No one is waiting to join." />
        </p>
      )}
      {requests.length > 0 && (
        <ul className="groups-people">
          {requests.map((r) => {
            const busy = answer.isPending && answer.variables?.userId === r.user._id;
            const act = (kind: 'accept' | 'decline') =>
              answer.mutate(
                { userId: r.user._id, answer: kind },
                { onError: (err) => onResult(groupErrorMessage(err)) },
              );
            return (
              <li key={r.user._id} className="groups-people__item">
                <Link to={`/profile/${r.user._id}`} className="groups-people__user">
                  <PostAvatar user={r.user} size={36} />
                  <span className="groups-people__name">{r.user.username}</span>
                </Link>
                <div className="groups-people__actions">
                  <Button
                    size="sm"
                    onClick={() => act('accept')}
                    disabled={busy}
                    aria-label={t(
                      { id: 'groups.requests.acceptUser', defaultMessage: 'Accept {username}' },
                      { username: r.user.username },
                    )}
                  >
                    <Message id="groups.requests.accept" defaultMessage="Accept" />
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => act('decline')}
                    disabled={busy}
                    aria-label={t(
                      { id: 'groups.requests.declineUser', defaultMessage: 'Decline {username}' },
                      { username: r.user.username },
                    )}
                  >
                    <Message id="groups.requests.decline" defaultMessage="Decline" />
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Members with their roles; the owner can remove members. */
export function MembersPanel({ group, onResult }: PanelProps) {
  const { userId } = useAuth();
  const remove = useRemoveMember(group._id);
  const [target, setTarget] = useState<GroupMember | null>(null);
  const t = useTranslate();
  const isOwner = group.role === 'owner';
  return (
    <section className="groups-panel card" aria-labelledby="groups-members-title">
      <h2 id="groups-members-title" className="groups-panel__title">
        <Message
          id="groups.members.title"
          defaultMessage="Members <badge>{count}</badge>"
          values={{ count: group.members.length, badge: countBadge }}
        />
      </h2>
      <ul className="groups-people">
        {group.members.map((m) => {
          const self = m.user._id === userId;
          return (
            <li key={m.user._id} className="groups-people__item">
              <Link to={self ? '/profile/me' : `/profile/${m.user._id}`} className="groups-people__user">
                <PostAvatar user={m.user} size={36} />
                <span className="groups-people__text">
                  <span className="groups-people__name">{m.user.username}</span>
                  <span className="groups-people__meta">
                    <RoleTag role={m.role} />
                    {self && (
                      <span className="muted">
                        <Message id="groups.members.you" defaultMessage="You" />
                      </span>
                    )}
                  </span>
                </span>
              </Link>
              {isOwner && m.role !== 'owner' && (
                <Button
                  size="sm"
                  variant="ghost"
                  className="groups-people__remove"
                  onClick={() => setTarget(m)}
                  aria-label={t(
                    { id: 'groups.members.removeUser', defaultMessage: 'Remove {username}' },
                    { username: m.user.username },
                  )}
                >
                  <Message id="groups.members.remove" defaultMessage="Remove" />
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={target !== null}
        title={t(
          { id: 'groups.members.removeTitle', defaultMessage: 'Remove {username}?' },
          { username: target?.user.username ?? '' },
        )}
        confirmLabel={t({ id: 'groups.members.removeConfirm', defaultMessage: 'Remove member' })}
        busy={remove.isPending}
        onCancel={() => setTarget(null)}
        onConfirm={() =>
          target &&
          remove.mutate(target.user._id, {
            onSettled: () => setTarget(null),
            onError: (err) => onResult(groupErrorMessage(err)),
          })
        }
      >
        <p>
          <Message
            id="groups.members.removeText"
            defaultMessage="They will no longer see {group}'s pictures and map, and their pictures will no longer be shared with the group."
            values={{ group: group.groupName }}
          />
        </p>
      </ConfirmDialog>
    </section>
  );
}
