import { useId } from 'react';
import { Link } from 'react-router';
import type { GroupSummary } from '@cats/contracts';
import { useMyGroups } from './api/get-my-groups.ts';
import './group-share-picker.css';

export const GROUP_SHARE_NOTICE =
  'Every member of the groups you tick can see this picture, and its exact location while the location is on. A picture whose location you switch off shows no location, not even to your groups.';

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
export function GroupSharePicker({
  selected,
  onChange,
  disabled,
  legend = 'Share with your groups',
}: GroupSharePickerProps) {
  const groups = useMyGroups();
  const noticeId = useId();
  const all: (GroupSummary & { role: 'Owner' | 'Member' })[] = [
    ...(groups.data?.ownedGroups ?? []).map((g) => ({ ...g, role: 'Owner' as const })),
    ...(groups.data?.memberGroups ?? []).map((g) => ({ ...g, role: 'Member' as const })),
  ];
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id));

  return (
    <fieldset
      className="group-share"
      disabled={disabled}
      aria-describedby={all.length > 0 ? noticeId : undefined}
    >
      <legend className="group-share__legend">{legend}</legend>
      {groups.isPending && <p className="group-share__status">Loading your groups...</p>}
      {groups.isError && <p className="group-share__status">Your groups could not be loaded.</p>}
      {groups.isSuccess && all.length === 0 && (
        <p className="group-share__status">
          You are not in any group yet. <Link to="/groups">Create or join a group</Link> to share pictures
          with friends.
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
                  <span className="group-share__role">{g.role}</span>
                </label>
              </li>
            ))}
          </ul>
          <p id={noticeId} className="group-share__notice">
            {GROUP_SHARE_NOTICE}
          </p>
        </>
      )}
    </fieldset>
  );
}
