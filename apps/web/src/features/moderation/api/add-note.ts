import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateModerationNoteBody, ModerationNote } from '@cats/contracts';
import { api } from '../../../lib/api-client.ts';
import { moderationKeys } from './moderation-keys.ts';

/** POST /api/moderation/notes: a note between moderators about something reported. */
export const addNote = (body: CreateModerationNoteBody) =>
  api<{ note: ModerationNote }>('/api/moderation/notes', { method: 'POST', body });

export function useAddNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addNote,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderationKeys.queue }),
  });
}
