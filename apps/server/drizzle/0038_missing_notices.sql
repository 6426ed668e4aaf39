CREATE TABLE "missing_notices" (
	"user_id" uuid NOT NULL,
	"cat_id" uuid NOT NULL,
	"type" text NOT NULL,
	"notified_at" timestamp with time zone NOT NULL,
	CONSTRAINT "missing_notices_user_id_cat_id_type_pk" PRIMARY KEY("user_id","cat_id","type"),
	CONSTRAINT "missing_notices_type" CHECK ("missing_notices"."type" in ('cat_missing_nearby', 'cat_found'))
);
--> statement-breakpoint
ALTER TABLE "missing_notices" ADD CONSTRAINT "missing_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missing_notices" ADD CONSTRAINT "missing_notices_cat_id_cats_id_fk" FOREIGN KEY ("cat_id") REFERENCES "public"."cats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "missing_notices_cat_idx" ON "missing_notices" USING btree ("cat_id");--> statement-breakpoint
-- Who of p_people may be told about the cat now, as p_type (issue 46): one notice of each kind per
-- person and cat a day, however often its alert is raised and ended (ten cycles had told a neighbour
-- twenty times, pushes too). Claims each one's notice in missing_notices (the primary key settles two
-- claims at the same moment) and answers those whose last notice of the kind is a day old, or who had
-- none. Only people the entry would reach are claimed (notification_allowed(): not the actor, no block
-- either way, the type not switched off), so a notice that was never written holds nothing back.
CREATE FUNCTION missing_notices_claim(
  p_people uuid[], p_cat uuid, p_type text, p_actor uuid, p_at timestamptz
) RETURNS uuid[] LANGUAGE sql AS $$
  WITH claimed AS (
    INSERT INTO missing_notices AS m (user_id, cat_id, type, notified_at)
      SELECT DISTINCT p.id, p_cat, p_type, p_at FROM unnest(p_people) AS p(id)
      WHERE p.id IS NOT NULL AND notification_allowed(p.id, p_type, p_actor, NULL)
      ORDER BY p.id
      ON CONFLICT (user_id, cat_id, type) DO UPDATE SET notified_at = excluded.notified_at
        WHERE m.notified_at <= excluded.notified_at - interval '1 day'
      RETURNING m.user_id
  )
  SELECT coalesce(array_agg(user_id), '{}') FROM claimed;
$$;
--> statement-breakpoint
-- migration 0019's trigger functions, each with its recipients passed through missing_notices_claim().
CREATE OR REPLACE FUNCTION notifications_missing_raised() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_people uuid[];
BEGIN
  SELECT coalesce(array_agg(near.id), '{}') INTO v_people
    FROM missing_near_home_areas(NEW.area_latitude, NEW.area_longitude, 2000) AS near(id)
    WHERE NOT EXISTS (SELECT 1 FROM cat_caretakers cc WHERE cc.cat_id = NEW.cat_id AND cc.user_id = near.id);
  v_people := missing_notices_claim(v_people, NEW.cat_id, 'cat_missing_nearby', NEW.raised_by, NEW.created_at);
  IF cardinality(v_people) > 0 THEN
    PERFORM add_notifications(
      v_people,
      array_fill('cat_missing_nearby'::text, ARRAY[cardinality(v_people)]),
      array_fill(NULL::uuid, ARRAY[cardinality(v_people)]),
      NEW.raised_by, NULL, NULL, NEW.created_at, NEW.cat_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notifications_missing_found() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_people uuid[];
BEGIN
  SELECT coalesce(array_agg(DISTINCT p.user_id), '{}') INTO v_people FROM (
    SELECT n.recipient_id AS user_id FROM notifications n
      WHERE n.cat_id = NEW.cat_id AND n.type = 'cat_missing_nearby' AND n.created_at >= NEW.created_at
    UNION SELECT f.user_id FROM cat_follows f WHERE f.cat_id = NEW.cat_id
    UNION SELECT c.user_id FROM cat_caretakers c WHERE c.cat_id = NEW.cat_id
  ) p;
  v_people := missing_notices_claim(v_people, NEW.cat_id, 'cat_found', NEW.ended_by, NEW.ended_at);
  IF cardinality(v_people) > 0 THEN
    PERFORM add_notifications(
      v_people,
      array_fill('cat_found'::text, ARRAY[cardinality(v_people)]),
      array_fill(NULL::uuid, ARRAY[cardinality(v_people)]),
      NEW.ended_by, NULL, NULL, NEW.ended_at, NEW.cat_id);
  END IF;
  RETURN NULL;
END $$;
