-- 'Which cat is this?' on Spot (issue 26): GET /api/cats/suggestions reads the live located sightings in
-- a box around the photo's place. The box's latitude is the range scanned, its longitude and the date
-- checked in the index, so the table is read only for the last 90 days' sightings in the box (whether
-- the location is on, by whom and of which cat follow in the key too).
CREATE INDEX "posts_cat_sightings_place_idx" ON "posts" USING btree ("latitude","longitude","created_at","show_location","user_id","cat_id","id") WHERE "posts"."cat_id" is not null and "posts"."deleted_at" is null and "posts"."latitude" is not null;