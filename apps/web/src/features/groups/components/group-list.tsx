import { Link } from 'react-router';
import type { GroupSummary } from '@cats/contracts';
import { useMyGroups } from '../../../components/groups/api/get-my-groups.ts';
import { groupErrorMessage } from '../api/errors.ts';
import { RoleTag } from './role-tag.tsx';
import { LoadingSkeleton, RowListSkeleton } from '../../../components/skeleton/skeleton.tsx';
import { Message, useTranslate } from '../../../i18n/message.tsx';

/** 'Manage your groups': each group links to its page, tagged Owner or Member. */
export function GroupList() {
  const groups = useMyGroups();
  const t = useTranslate();
  const rows: (GroupSummary & { role: 'owner' | 'member' })[] = [
    ...(groups.data?.ownedGroups ?? []).map((g) => ({ ...g, role: 'owner' as const })),
    ...(groups.data?.memberGroups ?? []).map((g) => ({ ...g, role: 'member' as const })),
  ];
  return (
    <section className="groups-manage" aria-labelledby="groups-manage-title">
      <h2 id="groups-manage-title">
        <Message id="groups.list.title" defaultMessage="Manage your groups" />
      </h2>
      {groups.isPending && (
        <LoadingSkeleton label={t({ id: 'groups.list.loading', defaultMessage: 'Loading your groups...' })}>
          <RowListSkeleton count={3} picture={32} round={false} />
        </LoadingSkeleton>
      )}
      {groups.isError && (
        <p className="notice notice--error" role="alert">
          {groupErrorMessage(groups.error)}
        </p>
      )}
      {groups.isSuccess && rows.length === 0 && (
        <p className="muted">
          <Message
            id="groups.list.empty"
            defaultMessage="You are not in any group yet. Create one, or ask a friend for their group's code."
          />
        </p>
      )}
      {rows.length > 0 && (
        <ul className="groups-manage__list">
          {rows.map((g) => (
            <li key={g._id}>
              <Link to={`/groups/${g._id}`} className="groups-manage__link">
                <span className="groups-manage__name">{g.groupName}</span>
                <RoleTag role={g.role} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
