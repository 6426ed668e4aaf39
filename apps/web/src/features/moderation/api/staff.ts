import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SetStaffRoleBody, StaffListResponse, StaffMember } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { moderationKeys } from './moderation-keys.ts';

/** GET /api/moderation/staff: admins and moderators. */
export const getStaff = (signal?: AbortSignal) => api<StaffListResponse>('/api/moderation/staff', { signal });

export function useStaff(enabled: boolean) {
  return useQuery({ queryKey: moderationKeys.staff, queryFn: ({ signal }) => getStaff(signal), enabled });
}

/** PUT /api/moderation/staff/{user}: `user` is an id or a username (admins only). */
export const setRole = (user: string, body: SetStaffRoleBody) =>
  api<{ member: StaffMember }>(`/api/moderation/staff/${encodeURIComponent(user)}`, { method: 'PUT', body });

export function useSetRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ user, role }: { user: string; role: SetStaffRoleBody['role'] }) => setRole(user, { role }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderationKeys.staff }),
  });
}
