import type { RawRow } from '../../db/raw-results.ts';

/** A cat's cover as the lists show it: the picture of one of its sightings (issue 26). */
export interface CoverRow {
  postId: string;
  mediaKey: string;
  width: number;
  height: number;
  placeholder: string;
  altText: string | null;
}

/**
 * The cover a list statement read into its `cover_*` columns (cover_id, cover_media_key, cover_width,
 * cover_height, cover_placeholder, cover_alt_text), or null when the row has none.
 */
export function coverFromColumns(r: RawRow): CoverRow | null {
  if (r.cover_id === null || r.cover_id === undefined) return null;
  return {
    postId: String(r.cover_id),
    mediaKey: String(r.cover_media_key),
    width: Number(r.cover_width),
    height: Number(r.cover_height),
    placeholder: String(r.cover_placeholder),
    altText: r.cover_alt_text === null || r.cover_alt_text === undefined ? null : String(r.cover_alt_text),
  };
}
