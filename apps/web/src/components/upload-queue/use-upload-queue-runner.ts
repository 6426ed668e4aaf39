import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { uploadQueue, useUploadQueue } from '../../lib/upload-queue/upload-queue.ts';
import { createCat } from '../cats/api/create-cat.ts';
import { catKeys } from '../cats/api/query-keys.ts';
import { showToast } from '../toast.tsx';
import { translate } from '../../i18n/i18n-store.ts';

/**
 * Runs the upload queue (issue 28) while a member is signed in (the member navigation holds it): sends
 * what waits now and whenever the connection returns; each sent picture refreshes the feed's caches so
 * it appears, and a 'New cat' chosen offline gets its page.
 */
export function useUploadQueueRunner(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      uploadQueue.start({
        onSent: async (post, sighting) => {
          if (sighting.newCatName) {
            try {
              const { cat } = await createCat({ name: sighting.newCatName, postId: post._id });
              showToast({
                message: translate(
                  {
                    id: 'uploads.newCat.made',
                    defaultMessage: '{name} has a page now, with this picture as the first sighting.',
                  },
                  { name: cat.name },
                ),
              });
            } catch {
              showToast({
                message: translate(
                  {
                    id: 'uploads.newCat.failed',
                    defaultMessage: 'Your picture is posted, but {name} could not be made.',
                  },
                  { name: sighting.newCatName },
                ),
              });
            }
          }
          await queryClient.resetQueries({ queryKey: ['feed'] });
          await queryClient.invalidateQueries({ queryKey: ['profile-posts'] });
          await queryClient.invalidateQueries({ queryKey: ['explore'] });
          if (sighting.post.catId || sighting.newCatName) {
            await queryClient.invalidateQueries({ queryKey: catKeys.all });
          }
        },
      }),
    [queryClient],
  );
}

/** How many of the signed-in user's pictures wait to be sent (the badge on the Spot tab). */
export function useUploadsWaitingCount(): number {
  return useUploadQueue().filter((e) => e.state.kind !== 'sent').length;
}
