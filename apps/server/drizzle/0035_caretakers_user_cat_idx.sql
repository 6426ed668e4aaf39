DROP INDEX "cat_caretakers_user_idx";--> statement-breakpoint
CREATE INDEX "cat_caretakers_user_idx" ON "cat_caretakers" USING btree ("user_id","cat_id");