-- The feed's index also carries the author, after the unique (created_at, id) pair, so the block filter
-- of a deep page is checked from the index alone (an index-only scan). Rebuilt under the same name.
DROP INDEX "posts_feed_idx";--> statement-breakpoint
CREATE INDEX "posts_feed_idx" ON "posts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"user_id");
