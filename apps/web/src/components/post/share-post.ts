import type { Post } from '@cats/contracts';
import { showToast } from '../toast.tsx';
import { translate } from '../../i18n/i18n-store.ts';

/** The post's own page, as an absolute address to hand on. */
export const postUrl = (postId: string): string => `${window.location.origin}/posts/${postId}`;

/**
 * Shares a post's address (issue 24): the system's share sheet where the browser has one (phones),
 * else the link goes to the clipboard and a toast says so. Used by the post page's Share button and
 * the own-post menu, so both behave the same. Call it from a click: both APIs need the user's gesture.
 */
export async function sharePostLink(post: Pick<Post, '_id' | 'catName'>): Promise<void> {
  const url = postUrl(post._id);
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({
        title:
          post.catName ??
          translate({ id: 'post.share.defaultTitle', defaultMessage: 'A cat on Neighbourhood Cats' }),
        url,
      });
      return;
    } catch (err) {
      // Closing the share sheet is no failure; anything else falls back to copying.
      if (err instanceof DOMException && err.name === 'AbortError') return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    showToast({ message: translate({ id: 'post.share.copied', defaultMessage: 'Link copied.' }) });
  } catch {
    // No clipboard (an insecure origin, a refused permission): the address itself, to copy by hand.
    showToast({
      message: translate({ id: 'post.share.copyThis', defaultMessage: 'Copy this link: {url}' }, { url }),
    });
  }
}
