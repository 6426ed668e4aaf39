import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences, NotificationType } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { accountKeys } from './query-keys.ts';

interface PreferencesResponse {
  preferences: NotificationPreferences;
}

export type Channel = 'inApp' | 'push';

/** One switch: a channel of one or more types (accepted and declined requests share one). */
export interface PreferenceChange {
  types: NotificationType[];
  channel: Channel;
  on: boolean;
}

/** GET /api/notifications/preferences: a switch per type, in the app and by push (issue 25). */
export function useNotificationPreferences() {
  return useQuery({
    queryKey: accountKeys.notificationPreferences(),
    queryFn: ({ signal }) => api<PreferencesResponse>('/api/notifications/preferences', { signal }),
  });
}

const MUTATION_KEY = ['notification-preference'] as const;

/**
 * PUT /api/notifications/preferences with the types that changed (the server keeps the others).
 * Optimistic: the switch moves at once, and only that switch moves back if the server refuses, so a
 * failed change does not undo another one made meanwhile. `onFailure` hears of every failure (a
 * callback given to `mutate` would hear only of the latest change's).
 */
export function useSetNotificationPreference(onFailure: (err: unknown) => void) {
  const queryClient = useQueryClient();
  const key = accountKeys.notificationPreferences();
  /** Sets the channel of each type named in `values`. */
  const move = (channel: Channel, values: Partial<Record<NotificationType, boolean>>) =>
    queryClient.setQueryData<PreferencesResponse>(key, (data) => {
      if (!data) return data;
      const preferences = { ...data.preferences };
      for (const [type, on] of Object.entries(values) as [NotificationType, boolean][])
        preferences[type] = { ...preferences[type], [channel]: on };
      return { preferences };
    });
  return useMutation({
    mutationKey: MUTATION_KEY,
    mutationFn: ({ types }: PreferenceChange) => {
      // Each type's two switches as they now are on screen, this change included.
      const current = queryClient.getQueryData<PreferencesResponse>(key);
      if (!current) throw new Error('Preferences not loaded');
      const preferences = Object.fromEntries(types.map((type) => [type, current.preferences[type]]));
      return api<PreferencesResponse>('/api/notifications/preferences', {
        method: 'PUT',
        body: { preferences },
      });
    },
    onMutate: async ({ types, channel, on }) => {
      const data = queryClient.getQueryData<PreferencesResponse>(key);
      const before = Object.fromEntries(types.map((type) => [type, data?.preferences[type][channel] ?? !on]));
      const after = Object.fromEntries(types.map((type) => [type, on]));
      // At once, in the click's own render, and again after cancelling a load in flight.
      move(channel, after);
      await queryClient.cancelQueries({ queryKey: key });
      move(channel, after);
      return { before };
    },
    onError: (err, { channel }, context) => {
      if (context) move(channel, context.before);
      onFailure(err);
    },
    onSuccess: (answer) => {
      // Another change still on its way would be undone on screen by this older answer.
      if (queryClient.isMutating({ mutationKey: MUTATION_KEY }) <= 1) queryClient.setQueryData(key, answer);
    },
  });
}
