import { Link } from 'react-router';
import type { Post } from '@cats/contracts';
import { MissingTag } from './missing-tag.tsx';

/**
 * The cat a picture shows, on cards, the post page and the map's detail (issue 26): the linked cat's
 * name as a link to its page, and 'Missing' after it while the cat is (whoever scrolls past a picture of
 * a missing cat should know it); where the author linked none, the free-text name they typed, as before.
 */
export function CatName({ post, className }: { post: Pick<Post, 'cat' | 'catName'>; className?: string }) {
  if (post.cat) {
    return (
      <>
        <Link to={`/cats/${encodeURIComponent(post.cat._id)}`} className={className} data-cat-link="">
          {post.cat.name}
        </Link>
        {post.cat.missing && <MissingTag />}
      </>
    );
  }
  if (post.catName) return <strong className={className}>{post.catName}</strong>;
  return null;
}
