import type { Cat, CatListItem } from '@cats/contracts';

/** A cat as GET /api/cats/{catId} answers it, for unit tests: a stranger's view, unless overridden. */
export const testCat = (id: string, overrides: Partial<Cat> = {}): Cat => ({
  _id: id,
  name: 'Luna',
  cover: null,
  description: '',
  coatColours: [],
  earTipped: 'unknown',
  neutered: 'unknown',
  living: 'unknown',
  createdBy: { _id: 'keeper', username: 'keeper' },
  caretakers: [{ _id: 'keeper', username: 'keeper' }],
  lastSeen: null,
  sightingCount: 0,
  sightingsThisWeek: 0,
  followerCount: 0,
  viewer: { isCaretaker: false, canEdit: false, following: false, canFollow: true },
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
  ...overrides,
});

/** A cat as the search (GET /api/cats) lists it: a community cat the viewer does not care for, unless overridden. */
export const testCatListItem = (
  id: string,
  name: string,
  lastSeenAt: string | null = null,
  missing = false,
  overrides: Partial<CatListItem> = {},
): CatListItem => ({
  _id: id,
  name,
  cover: null,
  living: 'community',
  viewerIsCaretaker: false,
  lastSeenAt,
  missing,
  ...overrides,
});
