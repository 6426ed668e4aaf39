DROP INDEX "cat_places_place_idx";--> statement-breakpoint
CREATE INDEX "cat_places_point_idx" ON "cat_places" USING gist (point("longitude", "latitude"));