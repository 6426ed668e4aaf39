import type { Post } from '@cats/contracts';

/** A post as the feed answers it, for unit tests: no location, no likes, no text, unless overridden. */
export const testPost = (id: string, overrides: Partial<Post> = {}): Post => ({
  _id: id,
  user: { _id: 'author', username: 'author' },
  imageUrl: `/media/${id}/800.webp`,
  image: { width: 800, height: 800, placeholder: '', variants: {} },
  caption: '',
  catName: null,
  cat: null,
  altText: null,
  greatCat: [],
  latitude: null,
  longitude: null,
  showLocation: false,
  locationPrecision: null,
  commentCount: 0,
  createdAt: '2024-01-01T00:00:00Z',
  editedAt: null,
  ...overrides,
});
