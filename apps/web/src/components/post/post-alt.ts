import type { Post } from '@cats/contracts';

/** The post's short name, generated: the card's accessible name, and the image's alt when no description. */
export const postLabel = (post: Pick<Post, 'catName' | 'user'>): string =>
  post.catName ? `Photo of ${post.catName}` : `Cat photo by ${post.user.username}`;

/** The image's alt everywhere: the author's description when they wrote one (issue 24, "Alt text"). */
export const imageAlt = (post: Pick<Post, 'catName' | 'user' | 'altText'>): string =>
  post.altText ?? postLabel(post);
