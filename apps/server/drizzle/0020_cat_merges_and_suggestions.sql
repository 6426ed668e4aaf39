CREATE TABLE "cat_merge_caretakers" (
	"merge_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"added" boolean NOT NULL,
	CONSTRAINT "cat_merge_caretakers_merge_id_user_id_pk" PRIMARY KEY("merge_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "cat_merge_follows" (
	"merge_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"added" boolean NOT NULL,
	CONSTRAINT "cat_merge_follows_merge_id_user_id_pk" PRIMARY KEY("merge_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "cat_merge_sightings" (
	"merge_id" uuid NOT NULL,
	"post_id" uuid NOT NULL,
	CONSTRAINT "cat_merge_sightings_merge_id_post_id_pk" PRIMARY KEY("merge_id","post_id")
);
--> statement-breakpoint
CREATE TABLE "cat_merges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cat_id" uuid NOT NULL,
	"duplicate_cat_id" uuid NOT NULL,
	"merged_by" uuid,
	"merged_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_by" uuid,
	"undone_at" timestamp with time zone,
	"home_adopted" boolean DEFAULT false NOT NULL,
	"living_before" text,
	CONSTRAINT "cat_merges_two_cats" CHECK ("cat_merges"."cat_id" <> "cat_merges"."duplicate_cat_id"),
	CONSTRAINT "cat_merges_undone" CHECK ("cat_merges"."undone_at" is null or "cat_merges"."undone_at" >= "cat_merges"."merged_at"),
	CONSTRAINT "cat_merges_home" CHECK ("cat_merges"."home_adopted" = ("cat_merges"."living_before" is not null))
);
--> statement-breakpoint
CREATE TABLE "cat_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"post_id" uuid NOT NULL,
	"cat_id" uuid NOT NULL,
	"suggested_by" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "cat_suggestions_status" CHECK ("cat_suggestions"."status" in ('open', 'accepted', 'declined')),
	CONSTRAINT "cat_suggestions_answered" CHECK (("cat_suggestions"."status" = 'open') = ("cat_suggestions"."answered_at" is null))
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" DROP CONSTRAINT "notification_preferences_type";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_post_types";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_cat_types";--> statement-breakpoint
ALTER TABLE "cats" ADD COLUMN "merged_into" uuid;--> statement-breakpoint
ALTER TABLE "cat_merge_caretakers" ADD CONSTRAINT "cat_merge_caretakers_merge_id_cat_merges_id_fk" FOREIGN KEY ("merge_id") REFERENCES "public"."cat_merges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_merge_caretakers" ADD CONSTRAINT "cat_merge_caretakers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_merge_follows" ADD CONSTRAINT "cat_merge_follows_merge_id_cat_merges_id_fk" FOREIGN KEY ("merge_id") REFERENCES "public"."cat_merges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_merge_follows" ADD CONSTRAINT "cat_merge_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_merge_sightings" ADD CONSTRAINT "cat_merge_sightings_merge_id_cat_merges_id_fk" FOREIGN KEY ("merge_id") REFERENCES "public"."cat_merges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_merge_sightings" ADD CONSTRAINT "cat_merge_sightings_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_merges" ADD CONSTRAINT "cat_merges_cat_id_cats_id_fk" FOREIGN KEY ("cat_id") REFERENCES "public"."cats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_merges" ADD CONSTRAINT "cat_merges_duplicate_cat_id_cats_id_fk" FOREIGN KEY ("duplicate_cat_id") REFERENCES "public"."cats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_merges" ADD CONSTRAINT "cat_merges_merged_by_users_id_fk" FOREIGN KEY ("merged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_merges" ADD CONSTRAINT "cat_merges_undone_by_users_id_fk" FOREIGN KEY ("undone_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_suggestions" ADD CONSTRAINT "cat_suggestions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_suggestions" ADD CONSTRAINT "cat_suggestions_cat_id_cats_id_fk" FOREIGN KEY ("cat_id") REFERENCES "public"."cats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_suggestions" ADD CONSTRAINT "cat_suggestions_suggested_by_users_id_fk" FOREIGN KEY ("suggested_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cat_merge_caretakers_user_idx" ON "cat_merge_caretakers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "cat_merge_follows_user_idx" ON "cat_merge_follows" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "cat_merge_sightings_post_idx" ON "cat_merge_sightings" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "cat_merges_cat_idx" ON "cat_merges" USING btree ("cat_id","merged_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cat_merges_duplicate_idx" ON "cat_merges" USING btree ("duplicate_cat_id","merged_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "cat_merges_in_force_idx" ON "cat_merges" USING btree ("duplicate_cat_id") WHERE "cat_merges"."undone_at" is null;--> statement-breakpoint
CREATE INDEX "cat_merges_merged_by_idx" ON "cat_merges" USING btree ("merged_by") WHERE "cat_merges"."merged_by" is not null;--> statement-breakpoint
CREATE INDEX "cat_merges_undone_by_idx" ON "cat_merges" USING btree ("undone_by") WHERE "cat_merges"."undone_by" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "cat_suggestions_open_idx" ON "cat_suggestions" USING btree ("post_id","suggested_by") WHERE "cat_suggestions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "cat_suggestions_post_idx" ON "cat_suggestions" USING btree ("post_id","created_at");--> statement-breakpoint
CREATE INDEX "cat_suggestions_cat_idx" ON "cat_suggestions" USING btree ("cat_id");--> statement-breakpoint
CREATE INDEX "cat_suggestions_suggested_by_idx" ON "cat_suggestions" USING btree ("suggested_by");--> statement-breakpoint
ALTER TABLE "cats" ADD CONSTRAINT "cats_merged_into_cats_id_fk" FOREIGN KEY ("merged_into") REFERENCES "public"."cats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cats_merged_into_idx" ON "cats" USING btree ("merged_into") WHERE "cats"."merged_into" is not null;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_type" CHECK ("notification_preferences"."type" in ('like', 'comment', 'reply', 'join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share', 'cat_sighting', 'cat_missing_nearby', 'cat_found', 'missing_report', 'cat_suggestion', 'cat_suggestion_accepted'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type" CHECK ("notifications"."type" in ('like', 'comment', 'reply', 'join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share', 'cat_sighting', 'cat_missing_nearby', 'cat_found', 'missing_report', 'cat_suggestion', 'cat_suggestion_accepted'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_post_types" CHECK ("notifications"."type" not in ('like', 'comment', 'reply', 'group_share', 'cat_sighting', 'cat_suggestion', 'cat_suggestion_accepted') or "notifications"."post_id" is not null);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_cat_types" CHECK (("notifications"."type" in ('cat_sighting', 'cat_suggestion', 'cat_suggestion_accepted', 'cat_missing_nearby', 'cat_found', 'missing_report')) = ("notifications"."cat_id" is not null));--> statement-breakpoint
ALTER TABLE "cats" ADD CONSTRAINT "cats_not_merged_into_itself" CHECK ("cats"."merged_into" <> "cats"."id");--> statement-breakpoint
-- Merged cats (issue 26): a merged profile keeps its row so that its id leads to the surviving cat, but
-- no post is ever linked to it. A link made to a merged cat (a post created or relinked at the moment
-- of a merge, or with an id from an old page) goes to the cat it was merged into, through as many
-- merges as there were. The read locks the cat row (FOR KEY SHARE): a merge holds its two cats FOR
-- UPDATE, so a link racing it waits for the merge to commit and then sees where the cat went, rather
-- than linking a post to a profile whose sightings were just moved away.
CREATE FUNCTION posts_cat_follows_merges() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_next uuid;
  v_hops integer := 0;
BEGIN
  LOOP
    SELECT c.merged_into INTO v_next FROM cats c WHERE c.id = NEW.cat_id FOR KEY SHARE;
    EXIT WHEN v_next IS NULL;
    NEW.cat_id := v_next;
    v_hops := v_hops + 1;
    IF v_hops > 100 THEN
      RAISE EXCEPTION 'cat % is merged in a loop', NEW.cat_id;
    END IF;
  END LOOP;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER posts_cat_follows_merges BEFORE INSERT OR UPDATE OF cat_id ON posts FOR EACH ROW
  WHEN (NEW.cat_id IS NOT NULL) EXECUTE FUNCTION posts_cat_follows_merges();
--> statement-breakpoint
-- A merge moves the duplicate's sightings to the survivor, and an undo moves them back, by updating
-- posts.cat_id. Those are old sightings changing profile, not new ones: the followers must not be told
-- 'mariposa spotted Luna' about pictures from last month, nor lose their entries about them. So the
-- merge and the undo set the transaction-local 'cats.moving_sightings' to 'on' around their UPDATE, and
-- the sighting trigger (migration 0017) does not fire while it is on; the existing entries follow their
-- post to the other cat in the same statements (cats.repository.ts). A setting rather than a condition
-- on posts.created_at: an author who links last year's picture today does tell the cat's followers, as
-- before, and the setting ends with the transaction whatever happens (set_config(..., true)).
DROP TRIGGER posts_notify_cat_changed ON posts;
--> statement-breakpoint
CREATE TRIGGER posts_notify_cat_changed AFTER UPDATE OF cat_id ON posts FOR EACH ROW
  WHEN (OLD.cat_id IS DISTINCT FROM NEW.cat_id
    AND current_setting('cats.moving_sightings', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION notifications_post_cat_changed();
--> statement-breakpoint
-- 'This is Luna' (issue 26): a suggestion tells the post's author ('cat_suggestion', its suggester the
-- actor), and its acceptance tells the suggester ('cat_suggestion_accepted', the author the actor), each
-- in its own transaction through add_notifications (notification_allowed: never one's own action,
-- nothing across a block, nothing about a post the recipient hid, nothing of a type switched off). A
-- suggestion of the cat the post already shows is moot and tells nobody: its suggester may not know the
-- link (a sighting near a household cat's home names no cat to them: migration 0018), so it is kept
-- like any other rather than refused, and the author's list leaves it out. The accepted entry names the
-- cat the post now shows, and is read through sighting_kept_from() like every cat entry, so a suggester
-- who is not a caretaker is not told that a picture near the cat's home is of that cat.
CREATE FUNCTION notifications_cat_suggestion() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_author uuid;
  v_post_cat uuid;
BEGIN
  SELECT p.user_id, p.cat_id INTO v_author, v_post_cat FROM posts p WHERE p.id = NEW.post_id;
  IF TG_OP = 'INSERT' THEN
    IF NEW.status = 'open' AND v_post_cat IS DISTINCT FROM NEW.cat_id THEN
      PERFORM add_notifications(ARRAY[v_author], ARRAY['cat_suggestion'], ARRAY[NULL::uuid],
        NEW.suggested_by, NEW.post_id, NULL, NEW.created_at, NEW.cat_id);
    END IF;
  ELSE
    PERFORM add_notifications(ARRAY[NEW.suggested_by], ARRAY['cat_suggestion_accepted'], ARRAY[NULL::uuid],
      v_author, NEW.post_id, NULL, NEW.answered_at, coalesce(v_post_cat, NEW.cat_id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cat_suggestions_notify_added AFTER INSERT ON cat_suggestions FOR EACH ROW
  EXECUTE FUNCTION notifications_cat_suggestion();
--> statement-breakpoint
CREATE TRIGGER cat_suggestions_notify_accepted AFTER UPDATE OF status ON cat_suggestions FOR EACH ROW
  WHEN (OLD.status = 'open' AND NEW.status = 'accepted') EXECUTE FUNCTION notifications_cat_suggestion();
