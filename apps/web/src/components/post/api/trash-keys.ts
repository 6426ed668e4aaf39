/** The caller's trash (GET /api/posts/trash): deleting fills it, restoring empties it. */
export const trashKeys = { all: ['trash'] as const };
