import type { GroupRole } from '@cats/contracts';
import { Message } from '../../../i18n/message.tsx';

/** Spec section 6: group roles are Owner and Member. */
export function RoleTag({ role }: { role: GroupRole }) {
  return (
    <span className={`groups-role groups-role--${role}`}>
      {role === 'owner' ? (
        <Message id="groups.role.owner" defaultMessage="Owner" />
      ) : (
        <Message id="groups.role.member" defaultMessage="Member" />
      )}
    </span>
  );
}
