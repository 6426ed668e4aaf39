import { useId } from 'react';
import { Link } from 'react-router';
import type { GroupSummary } from '@cats/contracts';
import { useMyGroups } from './api/get-my-groups.ts';
import { defineMessage } from '../../i18n/i18n-store.ts';
import { Message, useTranslate } from '../../i18n/message.tsx';
import './group-share-picker.css';

export const GROUP_SHARE_NOTICE = defineMessage({
  id: 'groups.share.notice',
  defaultMessage:
    'Every member of the groups you tick can see this picture, and its exact location while the location is on. A picture whose location you switch off shows no location, not even to your groups.',
});

export interface GroupSharePickerProps {
  /** Ids of the ticked groups. */
  selected: string[];
  onChange: (groupIds: string[]) => void;
  disabled?: boolean;
  legend?: string;
}

/**
 * A checkbox list of the user's groups (issue 7, point 4): used when spotting a cat and to share or
 * unshare an existing own post. Says plainly who will see the location and how precisely.
 */
export function GroupSharePicker({ selected, onChange, disabled, legend }: GroupSharePickerProps) {
  const groups = useMyGroups();
  const t = useTranslate();
  const noticeId = useId();
  const all: (GroupSummary & { role: 'owner' | 'member' })[] = [
    ...(groups.data?.ownedGroups ?? []).map((g) => ({ ...g, role: 'owner' as const })),
    ...(groups.data?.memberGroups ?? []).map((g) => ({ ...g, role: 'member' as const })),
  ];
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id));

  return (
    <fieldset
      className="group-share"
      disabled={disabled}
      aria-describedby={all.length > 0 ? noticeId : undefined}
    >
      <legend className="group-share__legend">
        {legend ?? t({ id: 'groups.share.legend', defaultMessage: 'Share with your groups' })}
      </legend>
      {groups.isPending && (
        <p className="group-share__status">
          <Message id="groups.list.loading" defaultMessage="Loading your groups..." />
        </p>
      )}
      {groups.isError && (
        <p className="group-share__status">
          <Message id="groups.share.loadFailed" defaultMessage="Your groups could not be loaded." />
        </p>
      )}
      {groups.isSuccess && all.length === 0 && (
        <p className="group-share__status">
          <Message
            id="groups.share.noGroups"
            defaultMessage="You are not in any group yet. <link>Create or join a group</link> to share pictures with friends."
            values={{ link: (chunks) => <Link to="/groups">{chunks}</Link> }}
          />
        </p>
      )}
      {all.length > 0 && (
        <>
          <ul className="group-share__list">
            {all.map((g) => (
              <li key={g._id}>
                <label className="group-share__item">
                  <input
                    type="checkbox"
                    className="group-share__checkbox"
                    checked={selected.includes(g._id)}
                    onChange={(e) => toggle(g._id, e.target.checked)}
                  />
                  <span className="group-share__name">{g.groupName}</span>
                  <span className="group-share__role">
                    {g.role === 'owner' ? (
                      <Message id="groups.role.owner" defaultMessage="Owner" />
                    ) : (
                      <Message id="groups.role.member" defaultMessage="Member" />
                    )}
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <p id={noticeId} className="group-share__notice">
            {t(GROUP_SHARE_NOTICE)}
          </p>
        </>
      )}
    </fieldset>
  );
}
