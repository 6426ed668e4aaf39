-- A household cat's sightings near its home are its caretakers' business (issue 26; docs/security.md,
-- "Cats"). Listing such a sighting "without a place" was not enough: its post id, in the cat's timeline
-- or a follower's cat_sighting entry, leads to the post, which shows its ~500 m cell. So for anyone but
-- the cat's caretakers and the sighting's author, such a sighting is not linked to the cat at all: the
-- cat routes and the notifications read through this function, in their queries.

-- Metres between two points on a sphere (haversine): cat-place.ts's metresBetween, in SQL.
CREATE FUNCTION metres_between(lat1 double precision, lon1 double precision, lat2 double precision, lon2 double precision)
  RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 2 * 6371000 * asin(least(1, sqrt(
    sin(radians(lat2 - lat1) / 2) ^ 2 + cos(radians(lat1)) * cos(radians(lat2)) * sin(radians(lon2 - lon1) / 2) ^ 2)))
$$;
--> statement-breakpoint
-- Whether the sighting (a post of p_author at p_lat, p_lon, linked to p_cat) is kept from p_viewer: it
-- lies within CAT_HOME_PRIVACY_METRES (200, packages/contracts/src/cats-constants.ts) of the household
-- cat's home point, and the viewer is neither its author nor one of the cat's caretakers.
CREATE FUNCTION sighting_kept_from(
  p_cat uuid, p_author uuid, p_lat double precision, p_lon double precision, p_viewer uuid
) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT p_cat IS NOT NULL AND p_lat IS NOT NULL AND p_lon IS NOT NULL
    AND p_viewer IS DISTINCT FROM p_author
    AND EXISTS (
      SELECT 1 FROM cats c
      WHERE c.id = p_cat AND c.living = 'household'
        AND c.home_latitude IS NOT NULL AND c.home_longitude IS NOT NULL
        AND metres_between(p_lat, p_lon, c.home_latitude, c.home_longitude) <= 200
        AND NOT EXISTS (SELECT 1 FROM cat_caretakers cc WHERE cc.cat_id = c.id AND cc.user_id = p_viewer))
$$;
