import type { Post } from '@cats/contracts';
import { Button } from '../button.tsx';
import { ShareIcon } from '../icons.tsx';
import { sharePostLink } from './share-post.ts';
import { Message } from '../../i18n/message.tsx';

/** The post page's Share button: the share sheet on phones, the link copied elsewhere (share-post.ts). */
export function ShareButton({ post }: { post: Pick<Post, '_id' | 'catName'> }) {
  return (
    <Button variant="secondary" size="sm" onClick={() => void sharePostLink(post)}>
      <ShareIcon size={18} />
      <Message id="post.share.button" defaultMessage="Share" />
    </Button>
  );
}
