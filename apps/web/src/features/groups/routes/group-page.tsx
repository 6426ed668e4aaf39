import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { groupErrorMessage } from '../api/errors.ts';
import { useGroup } from '../api/get-group.ts';
import type { CreatedGroupState } from '../components/create-group-form.tsx';
import { GroupActions } from '../components/group-actions.tsx';
import { GroupCode } from '../components/group-code.tsx';
import { GroupFeed } from '../components/group-feed.tsx';
import { MembersPanel, RequestsPanel } from '../components/members-panel.tsx';
import { ResultModal } from '../components/result-modal.tsx';
import { RoleTag } from '../components/role-tag.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';
import '../groups.css';

const GroupMap = lazy(() => import('../components/group-map.tsx'));

type View = 'feed' | 'map';

/** /groups/{groupId}: the group, its code, members and requests, and its pictures as a feed or a map. */
export default function GroupPage() {
  const { groupId = '' } = useParams();
  const group = useGroup(groupId);
  const [view, setView] = useState<View>('feed');
  const location = useLocation();
  const navigate = useNavigate();
  const t = useTranslate();
  // A group just created arrives with its result (and code) for the modal.
  const created = (location.state as Partial<CreatedGroupState> | null)?.created ?? null;
  const [result, setResult] = useState<string | null>(created);
  const closeResult = () => {
    setResult(null);
    // Once read, the message leaves the history entry: a reload or a way back shows no modal again.
    if (created) void navigate('.', { replace: true, state: null });
  };

  if (group.isPending) {
    return (
      <p className="loading-text" role="status">
        <Message id="groups.page.loading" defaultMessage="Loading the group..." />
      </p>
    );
  }
  if (group.isError) {
    const missing = group.error instanceof ApiError && group.error.status === 404;
    return (
      <div className="page groups-missing">
        <h1>
          {missing ? (
            <Message id="groups.page.notFound" defaultMessage="Group not found" />
          ) : (
            <Message id="groups.page.loadFailed" defaultMessage="The group could not be loaded" />
          )}
        </h1>
        <p>
          {missing ? (
            <Message
              id="groups.page.notFoundText"
              defaultMessage="This group does not exist, or you are not one of its members."
            />
          ) : (
            <Message
              id="groups.error.message"
              defaultMessage="Error: {message}"
              values={{ message: groupErrorMessage(group.error) }}
            />
          )}
        </p>
        <Link to="/groups">
          <Message id="groups.page.back" defaultMessage="Back to your groups" />
        </Link>
      </div>
    );
  }

  const data = group.data;
  return (
    <div className="page page--wide groups-detail">
      <Link to="/groups" className="groups-detail__back">
        <Message id="groups.page.allGroups" defaultMessage="← All groups" />
      </Link>
      <header className="groups-detail__header">
        <div className="groups-detail__heading">
          <h1 className="groups-detail__title">{data.groupName}</h1>
          <RoleTag role={data.role} />
        </div>
        {data.code !== undefined ? (
          <GroupCode group={{ ...data, code: data.code }} onResult={setResult} />
        ) : (
          <p className="groups-detail__visitor-note">
            <Message
              id="groups.page.demoNote"
              defaultMessage="You are looking around as the demo user: the join code is not shown, and locations are as precise as for anyone outside the group (about 500 m)."
            />
          </p>
        )}
      </header>

      <div className="groups-detail__layout">
        <aside className="groups-detail__side">
          <RequestsPanel group={data} onResult={setResult} />
          <MembersPanel group={data} onResult={setResult} />
        </aside>

        <section className="groups-detail__main" aria-labelledby="groups-pictures-title">
          <div className="groups-detail__pictures-head">
            <h2 id="groups-pictures-title">
              <Message id="groups.page.pictures" defaultMessage="Pictures" />
            </h2>
            <div
              className="groups-switch"
              role="group"
              aria-label={t({ id: 'groups.page.view', defaultMessage: 'Show pictures as' })}
            >
              {(['feed', 'map'] as const).map((v) => (
                <button
                  key={v}
                  type="button"
                  className="groups-switch__option"
                  aria-pressed={view === v}
                  onClick={() => setView(v)}
                >
                  {v === 'feed' ? (
                    <Message id="groups.page.view.feed" defaultMessage="Feed" />
                  ) : (
                    <Message id="groups.page.view.map" defaultMessage="Map" />
                  )}
                </button>
              ))}
            </div>
          </div>
          <p className="groups-detail__privacy muted">
            <Message
              id="groups.page.privacy"
              defaultMessage="Members of this group see the exact spot of every picture shared with it whose location is on. A picture whose location is off shows no location here either."
            />
          </p>
          {view === 'feed' ? (
            <GroupFeed groupId={data._id} />
          ) : (
            <Suspense
              fallback={
                <p className="loading-text" role="status">
                  <Message id="groups.page.loadingMap" defaultMessage="Loading the map..." />
                </p>
              }
            >
              <GroupMap groupId={data._id} />
            </Suspense>
          )}
        </section>

        <div className="groups-detail__actions">
          <GroupActions group={data} onResult={setResult} />
        </div>
      </div>
      <ResultModal message={result} onClose={closeResult} />
    </div>
  );
}
