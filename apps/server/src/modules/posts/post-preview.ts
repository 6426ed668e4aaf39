import { isUuid } from '@cats/contracts';
import type { Executor } from '../../db/client.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { getPostView } from './post-view.ts';

/**
 * Open Graph and Twitter card tags for a post's page (issue 24), so a shared link unfurls in chat
 * apps. A crawler is signed out: it sees what the shared demo account sees (a stranger who hid
 * nothing and blocked no one, usernames anonymised), so the tags name no user, and no location tag is
 * ever written, whatever the viewer could see.
 */
const CRAWLER: AuthContext = { userId: '00000000-0000-0000-0000-000000000000', isDemo: true };

export const PREVIEW_TITLE_FALLBACK = 'A cat on Neighbourhood Cats';
export const PREVIEW_DESCRIPTION_FALLBACK =
  'A cat spotted in the neighbourhood, shared on Neighbourhood Cats.';
/** Chat apps cut descriptions at about this length anyway; a whole word and an ellipsis read better. */
export const PREVIEW_DESCRIPTION_MAX = 200;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeAttribute = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The caption on one line, cut at a word boundary when it is long. */
export function previewDescription(caption: string): string {
  const text = caption.replace(/\s+/g, ' ').trim();
  if (!text) return PREVIEW_DESCRIPTION_FALLBACK;
  if (text.length <= PREVIEW_DESCRIPTION_MAX) return text;
  const cut = text.slice(0, PREVIEW_DESCRIPTION_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > PREVIEW_DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * PUBLIC_URL's origin, or undefined. Never the request's Host or X-Forwarded-Host (issue 46): anyone
 * can name any host, and a cache or chat app that keeps the page would then send people to theirs.
 */
export function publicOrigin(publicUrl: string | undefined): string | undefined {
  return publicUrl ? new URL(publicUrl).origin : undefined;
}

export interface PreviewOptions {
  publicBase: string | undefined;
  /** PUBLIC_URL's origin for og:url and relative media URLs; without it those tags are left out. */
  origin: string | undefined;
}

/** An absolute URL, or null when `url` is relative and there is no configured origin to put it on. */
function absolute(url: string, origin: string | undefined): string | null {
  if (origin) return new URL(url, origin).href;
  return URL.canParse(url) ? url : null;
}

/** The <meta> tags for this post's page, or null when there is no such post for a stranger. */
export async function postPreviewTags(
  db: Executor,
  rawPostId: string,
  opts: PreviewOptions,
): Promise<string | null> {
  if (!isUuid(rawPostId)) return null;
  const postId = rawPostId.toLowerCase();
  const post = await getPostView(db, CRAWLER, postId, { publicBase: opts.publicBase });
  if (!post) return null;
  const title = post.catName ?? PREVIEW_TITLE_FALLBACK;
  // The author's own description of the photo when there is one (issue 24, "Alt text").
  const imageAlt = post.altText ?? (post.catName ? `Photo of ${post.catName}` : 'Photo of a cat');
  // Only these fields of the post are read: its position (approximate for a stranger) never is.
  // Open Graph wants absolute URLs: without PUBLIC_URL (or S3_PUBLIC_URL for the image) they are left
  // out rather than built from the Host the request names.
  const image = absolute(post.image.variants['800'] ?? post.imageUrl, opts.origin);
  const url = opts.origin ? new URL(`/posts/${postId}`, opts.origin).href : null;
  type Tag = readonly [attribute: 'property' | 'name', key: string, value: string];
  const tags: Tag[] = [
    ['property', 'og:type', 'article'],
    ['property', 'og:site_name', 'Neighbourhood Cats'],
    ['property', 'og:title', title],
    ['property', 'og:description', previewDescription(post.caption)],
    ...(image
      ? ([
          ['property', 'og:image', image],
          ['property', 'og:image:alt', imageAlt],
        ] satisfies Tag[])
      : []),
    ...(url ? ([['property', 'og:url', url]] satisfies Tag[]) : []),
    ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
  ];
  return tags
    .map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeAttribute(value)}" />`)
    .join('\n    ');
}
