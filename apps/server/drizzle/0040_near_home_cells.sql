-- Near a household cat's home, on cells (issue 46; docs/decisions/022-near-home-on-cells.md). Whether a
-- sighting is kept from everyone but the cat's caretakers and its author was decided on the exact
-- distance to the home point (200 m, 0018), and the answer shows to everyone: moving a post, or the
-- home, a few metres at a time and watching a second account found the home, or a neighbour's exact
-- sighting, to the metre. It is now a function of two ~500 m cells (decision 004's grid,
-- location-grid.ts): the post's, which strangers see anyway, and the home's. A sighting is kept when
-- its cell is the home's or one of its neighbours, which holds everything within 200 m of the home (a
-- cell is ~500 m). A post whose location is switched off is never kept: it shows no place to anyone
-- but its author, so linking it to the cat tells nothing of the home, and its exact point, which
-- nobody else may know even coarsely, must decide nothing anyone else sees. That rule is for a
-- caretaker's own sightings: one by anyone else (a suggestion its author accepted, a link older than
-- decision 022) is kept from everyone but the caretakers and its author wherever it lies, since its
-- author could move it from cell to cell and watch.

-- The grid of location-grid.ts, step for step in double precision (the literals cast, or they would be
-- numeric), so the server and the database put every point in the same cell.
CREATE FUNCTION location_cell_row(p_lat double precision) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT least(39999, greatest(0, floor((p_lat + 90) / 0.0045::float8)))::integer
$$;
--> statement-breakpoint
CREATE FUNCTION location_cell_columns(p_row integer) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT greatest(1, round(360 / least(1::float8, 0.0045::float8 / greatest(
    cos((((-90 + p_row * 0.0045::float8) + ((-90 + p_row * 0.0045::float8) + 0.0045::float8)) / 2) * pi() / 180),
    1e-9::float8))))::integer
$$;
--> statement-breakpoint
CREATE FUNCTION location_cell_column(p_lon double precision, p_columns integer) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT least(p_columns - 1, greatest(0, floor((p_lon + 180) / (360 / p_columns::float8))))::integer
$$;
--> statement-breakpoint
-- location-grid.ts's cellsAdjacent: a row apart at most, and overlapping, around the globe, the span of
-- b's row from the column before b to the column after it, compared as whole numbers (exact).
CREATE FUNCTION location_cells_adjacent(
  a_row integer, a_col integer, a_cols integer, b_row integer, b_col integer, b_cols integer
) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT abs(a_row - b_row) <= 1 AND (
    ((a_col - a_cols)::bigint * b_cols < (b_col + 2)::bigint * a_cols
      AND (a_col - a_cols + 1)::bigint * b_cols > (b_col - 1)::bigint * a_cols)
    OR (a_col::bigint * b_cols < (b_col + 2)::bigint * a_cols
      AND (a_col + 1)::bigint * b_cols > (b_col - 1)::bigint * a_cols)
    OR ((a_col + a_cols)::bigint * b_cols < (b_col + 2)::bigint * a_cols
      AND (a_col + a_cols + 1)::bigint * b_cols > (b_col - 1)::bigint * a_cols))
$$;
--> statement-breakpoint
-- Whether point a's cell is point b's or one of its neighbours. Most sightings are rows away from the
-- home: two divisions answer them; the rest cost two cosines, as the haversine it replaces did.
CREATE FUNCTION location_cells_near(
  a_lat double precision, a_lon double precision, b_lat double precision, b_lon double precision
) RETURNS boolean LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  a_row integer := location_cell_row(a_lat);
  b_row integer := location_cell_row(b_lat);
  a_cols integer;
  b_cols integer;
BEGIN
  IF abs(a_row - b_row) > 1 THEN RETURN false; END IF;
  a_cols := location_cell_columns(a_row);
  b_cols := location_cell_columns(b_row);
  RETURN location_cells_adjacent(
    a_row, location_cell_column(a_lon, a_cols), a_cols, b_row, location_cell_column(b_lon, b_cols), b_cols);
END $$;
--> statement-breakpoint
-- The switch is an argument now: every caller has the post's row at hand.
DROP FUNCTION sighting_kept_from(uuid, uuid, double precision, double precision, uuid);
--> statement-breakpoint
-- Whether the sighting (a post of p_author at p_lat, p_lon, its location shown or not, linked to p_cat)
-- is kept from p_viewer, who is neither its author nor one of the household cat's caretakers (and the
-- cat has a home point). A sighting by someone who is not a caretaker is then kept always, wherever it
-- lies: its author moves it at will, and an answer that changed from cell to cell would show them, from
-- a second account, the home's cells. A caretaker's own is kept when its location is shown and its cell
-- is the home's cell or one of its neighbours (the caretakers know the home anyway). Whether the author
-- cares for the cat is one probe of cat_caretakers_user_idx (user_id, cat_id).
CREATE FUNCTION sighting_kept_from(
  p_cat uuid, p_author uuid, p_lat double precision, p_lon double precision, p_show_location boolean,
  p_viewer uuid
) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT p_cat IS NOT NULL AND p_viewer IS DISTINCT FROM p_author
    AND EXISTS (
      SELECT 1 FROM cats c
      WHERE c.id = p_cat AND c.living = 'household'
        AND c.home_latitude IS NOT NULL AND c.home_longitude IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM cat_caretakers cc WHERE cc.cat_id = c.id AND cc.user_id = p_viewer)
        AND (NOT EXISTS (SELECT 1 FROM cat_caretakers ac WHERE ac.user_id = p_author AND ac.cat_id = c.id)
          OR (p_show_location IS TRUE AND p_lat IS NOT NULL AND p_lon IS NOT NULL
            AND location_cells_near(p_lat, p_lon, c.home_latitude, c.home_longitude))))
$$;
--> statement-breakpoint
-- 0032's, with the switch passed on.
CREATE OR REPLACE FUNCTION cat_public_sighting(p_cat uuid)
  RETURNS TABLE (post_id uuid, user_id uuid, latitude double precision, longitude double precision, show_location boolean)
  LANGUAGE sql STABLE AS $$
  SELECT p.id, p.user_id, p.latitude, p.longitude, p.show_location
  FROM posts p
  WHERE p.cat_id = p_cat AND p.deleted_at IS NULL AND p.moderation IS NULL AND NOT p.author_suspended
    AND NOT sighting_kept_from(p.cat_id, p.user_id, p.latitude, p.longitude, p.show_location, NULL)
  ORDER BY p.created_at DESC, p.id DESC
  LIMIT 1
$$;
--> statement-breakpoint
-- Whether a sighting's author cares for the cat now decides what strangers see of a household cat: a
-- caretaker added or removed changes the cat's place. Once per statement, in cat order (0032's rule).
CREATE FUNCTION cat_places_caretakers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cat_places_refresh(t.cat_id)
    FROM (SELECT DISTINCT x.cat_id FROM cat_places_changed_caretakers x
      JOIN cats c ON c.id = x.cat_id
      WHERE c.living = 'household' AND c.home_latitude IS NOT NULL ORDER BY x.cat_id) t;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cat_caretakers_cat_places_insert AFTER INSERT ON cat_caretakers
  REFERENCING NEW TABLE AS cat_places_changed_caretakers
  FOR EACH STATEMENT EXECUTE FUNCTION cat_places_caretakers_changed();
--> statement-breakpoint
CREATE TRIGGER cat_caretakers_cat_places_delete AFTER DELETE ON cat_caretakers
  REFERENCING OLD TABLE AS cat_places_changed_caretakers
  FOR EACH STATEMENT EXECUTE FUNCTION cat_places_caretakers_changed();
--> statement-breakpoint
-- The household cats' places under the new rule.
SELECT cat_places_refresh(c.id) FROM cats c
  WHERE c.living = 'household' AND c.home_latitude IS NOT NULL AND c.home_longitude IS NOT NULL
  ORDER BY c.id;
