import { useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/post/api/errors.ts';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useMyProfile } from '../../../lib/my-profile.ts';
import { useQueue } from '../api/get-queue.ts';
import { useStats } from '../api/get-stats.ts';
import { AppealsSection } from '../components/appeals-section.tsx';
import { AuditLog } from '../components/audit-log.tsx';
import { QueueCard } from '../components/queue-card.tsx';
import { QueueStats } from '../components/queue-stats.tsx';
import { TeamSection } from '../components/team-section.tsx';
import '../moderation.css';

/**
 * /moderation (issue 27): the queue of reported things, the one waiting longest first, the queue's
 * health, the open appeals, the audit log and, for admins, the team. The server checks the role on every request; the page only keeps
 * others from a screen of refusals.
 */
export default function ModerationPage() {
  const profile = useMyProfile();
  const role = profile.data?.role;
  const isStaff = role === 'moderator' || role === 'admin';
  const queue = useQueue(isStaff);
  const stats = useStats(isStaff);
  const [status, setStatus] = useState<string | null>(null);
  const t = useTranslate();

  const refused = [queue.error, stats.error].some((e) => e instanceof ApiError && e.status === 403);

  return (
    <div className="page page--wide moderation">
      <title>{t({ id: 'moderation.page.title', defaultMessage: 'Moderation · Neighbourhood Cats' })}</title>
      <h1>
        <Message id="moderation.page.heading" defaultMessage="Moderation" />
      </h1>
      {profile.isPending ? (
        <p className="loading-text">
          <Message id="moderation.loading" defaultMessage="Loading..." />
        </p>
      ) : profile.isError ? (
        <p className="notice notice--error">
          <Message
            id="moderation.error"
            defaultMessage="Error: {message}"
            values={{ message: errorMessage(profile.error) }}
          />
        </p>
      ) : !isStaff || refused ? (
        <div className="moderation__gate card">
          <p>
            <Message id="moderation.page.notStaff" defaultMessage="Only moderators can see this page." />
          </p>
        </div>
      ) : (
        <div className="moderation__layout">
          <div className="moderation__main">
            {stats.data && <QueueStats stats={stats.data} />}
            {status && (
              <p className="notice notice--success" role="status">
                {status}
              </p>
            )}
            {queue.isPending ? (
              <p className="loading-text">
                <Message id="moderation.loading" defaultMessage="Loading..." />
              </p>
            ) : queue.isError ? (
              <p className="notice notice--error">
                <Message
                  id="moderation.error"
                  defaultMessage="Error: {message}"
                  values={{ message: errorMessage(queue.error) }}
                />
              </p>
            ) : queue.data.pages[0]?.groups.length === 0 ? (
              <div className="moderation__empty card">
                <p>
                  <Message
                    id="moderation.queue.empty"
                    defaultMessage="The queue is empty. Nothing is waiting for a moderator."
                  />
                </p>
              </div>
            ) : (
              <>
                <ul className="moderation__queue">
                  {queue.data.pages
                    .flatMap((page) => page.groups)
                    .map((group) => (
                      <li key={`${group.targetType}:${group.targetId}`}>
                        <QueueCard group={group} onDecided={setStatus} />
                      </li>
                    ))}
                </ul>
                {queue.hasNextPage && (
                  <Button
                    variant="secondary"
                    className="moderation__more"
                    disabled={queue.isFetchingNextPage}
                    onClick={() => void queue.fetchNextPage()}
                  >
                    {queue.isFetchingNextPage ? (
                      <Message id="moderation.loading" defaultMessage="Loading..." />
                    ) : (
                      <Message id="moderation.queue.more" defaultMessage="Show more reports" />
                    )}
                  </Button>
                )}
              </>
            )}
            <AppealsSection />
            <AuditLog />
          </div>
          {role === 'admin' && profile.data && (
            <aside className="moderation__side">
              <TeamSection myUserId={profile.data._id} />
            </aside>
          )}
        </div>
      )}
    </div>
  );
}
