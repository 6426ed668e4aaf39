import type { Post } from '@cats/contracts';
import { translate } from '../../i18n/i18n-store.ts';

/** The fields naming a picture; `cat` where the list has it (the linked cat's name wins, issue 26). */
type Named = Pick<Post, 'catName'> & { user: Pick<Post['user'], 'username'>; cat?: Post['cat'] };

/** The name of the cat a picture shows: the linked cat's, else the author's free text. */
export const catNameOf = (post: Named): string | null => post.cat?.name ?? post.catName;

/** The post's short name, generated: the card's accessible name, and the image's alt when no description. */
export const postLabel = (post: Named): string => {
  const name = catNameOf(post);
  return name
    ? translate({ id: 'post.alt.photoOf', defaultMessage: 'Photo of {name}' }, { name })
    : translate(
        { id: 'post.alt.photoBy', defaultMessage: 'Cat photo by {username}' },
        { username: post.user.username },
      );
};

/** The image's alt everywhere: the author's description when they wrote one (issue 24, "Alt text"). */
export const imageAlt = (post: Named & Pick<Post, 'altText'>): string => post.altText ?? postLabel(post);
