import type { GroupRole } from '@cats/contracts';

/** Spec section 6: group roles are Owner and Member. */
export function RoleTag({ role }: { role: GroupRole }) {
  return <span className={`groups-role groups-role--${role}`}>{role === 'owner' ? 'Owner' : 'Member'}</span>;
}
