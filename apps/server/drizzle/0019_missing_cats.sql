CREATE TABLE "missing_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cat_id" uuid NOT NULL,
	"raised_by" uuid,
	"last_seen_at" timestamp with time zone NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"area_latitude" double precision NOT NULL,
	"area_longitude" double precision NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"contact" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" uuid,
	"end_reason" text,
	CONSTRAINT "missing_alerts_latitude_range" CHECK ("missing_alerts"."latitude" between -90 and 90),
	CONSTRAINT "missing_alerts_longitude_range" CHECK ("missing_alerts"."longitude" between -180 and 180),
	CONSTRAINT "missing_alerts_area_latitude_range" CHECK ("missing_alerts"."area_latitude" between -90 and 90),
	CONSTRAINT "missing_alerts_area_longitude_range" CHECK ("missing_alerts"."area_longitude" between -180 and 180),
	CONSTRAINT "missing_alerts_note_length" CHECK (char_length("missing_alerts"."note") <= 500),
	CONSTRAINT "missing_alerts_contact" CHECK ("missing_alerts"."contact" in ('report', 'photo', 'keep_distance')),
	CONSTRAINT "missing_alerts_expiry" CHECK ("missing_alerts"."expires_at" > "missing_alerts"."created_at"),
	CONSTRAINT "missing_alerts_end_reason" CHECK ("missing_alerts"."end_reason" is null or "missing_alerts"."end_reason" in ('found', 'lapsed')),
	CONSTRAINT "missing_alerts_end_pair" CHECK (("missing_alerts"."ended_at" is null) = ("missing_alerts"."end_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "missing_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"reporter_id" uuid NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "missing_reports_latitude_range" CHECK ("missing_reports"."latitude" between -90 and 90),
	CONSTRAINT "missing_reports_longitude_range" CHECK ("missing_reports"."longitude" between -180 and 180),
	CONSTRAINT "missing_reports_note_length" CHECK (char_length("missing_reports"."note") <= 500)
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" DROP CONSTRAINT "notification_preferences_type";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_cat_types";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "home_area_latitude" double precision;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "home_area_longitude" double precision;--> statement-breakpoint
ALTER TABLE "missing_alerts" ADD CONSTRAINT "missing_alerts_cat_id_cats_id_fk" FOREIGN KEY ("cat_id") REFERENCES "public"."cats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missing_alerts" ADD CONSTRAINT "missing_alerts_raised_by_users_id_fk" FOREIGN KEY ("raised_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missing_alerts" ADD CONSTRAINT "missing_alerts_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missing_reports" ADD CONSTRAINT "missing_reports_alert_id_missing_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."missing_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "missing_reports" ADD CONSTRAINT "missing_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "missing_alerts_open_cat_idx" ON "missing_alerts" USING btree ("cat_id") WHERE "missing_alerts"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "missing_alerts_open_area_idx" ON "missing_alerts" USING btree ("area_latitude","area_longitude") WHERE "missing_alerts"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "missing_alerts_cat_idx" ON "missing_alerts" USING btree ("cat_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "missing_alerts_raised_by_idx" ON "missing_alerts" USING btree ("raised_by");--> statement-breakpoint
CREATE INDEX "missing_alerts_ended_by_idx" ON "missing_alerts" USING btree ("ended_by") WHERE "missing_alerts"."ended_by" is not null;--> statement-breakpoint
CREATE INDEX "missing_reports_alert_idx" ON "missing_reports" USING btree ("alert_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "missing_reports_reporter_idx" ON "missing_reports" USING btree ("reporter_id");--> statement-breakpoint
CREATE INDEX "users_home_area_idx" ON "users" USING btree ("home_area_latitude","home_area_longitude") WHERE "users"."home_area_latitude" is not null;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_home_area_range" CHECK ("users"."home_area_latitude" is null or ("users"."home_area_latitude" between -90 and 90 and "users"."home_area_longitude" between -180 and 180));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_home_area_pair" CHECK (("users"."home_area_latitude" is null) = ("users"."home_area_longitude" is null));--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_type" CHECK ("notification_preferences"."type" in ('like', 'comment', 'reply', 'join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share', 'cat_sighting', 'cat_missing_nearby', 'cat_found', 'missing_report'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type" CHECK ("notifications"."type" in ('like', 'comment', 'reply', 'join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share', 'cat_sighting', 'cat_missing_nearby', 'cat_found', 'missing_report'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_cat_types" CHECK (("notifications"."type" in ('cat_sighting', 'cat_missing_nearby', 'cat_found', 'missing_report')) = ("notifications"."cat_id" is not null));--> statement-breakpoint
-- Issue 26, "Missing cats": the notifications of an alert, written by triggers in the transaction of
-- their cause, through add_notifications() (migrations 0014, 0015, 0017), whose notification_allowed()
-- leaves out the actor themself, anyone who shares a block with them and anyone who switched the type
-- off. The entries carry the cat, never a place: the web entry and the push say which cat, and the
-- cat's page shows the last-seen cell.
--
-- Who lives near a place: users whose home area (a cell centre, chosen in Settings) lies within p_metres
-- of it. A box of latitudes and longitudes first, so that users_home_area_idx (and missing_alerts_open_area_idx
-- in the app's near list) reads only the rows around the place, then the exact distance
-- (metres_between(), migration 0018). Near the poles the box is every longitude; across the antimeridian
-- it is two ranges. Users without a home area are never told: the number told stays bounded.
CREATE FUNCTION missing_near_home_areas(p_lat double precision, p_lon double precision, p_metres double precision)
  RETURNS SETOF uuid LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_dlat double precision := degrees(p_metres / 6371000.0);
  v_cos double precision := cos(radians(least(89.9, abs(p_lat) + v_dlat)));
  v_dlon double precision := CASE WHEN abs(p_lat) + v_dlat >= 89.9 THEN 360 ELSE least(360, v_dlat / v_cos) END;
BEGIN
  RETURN QUERY
    SELECT u.id FROM users u
    WHERE u.home_area_latitude BETWEEN p_lat - v_dlat AND p_lat + v_dlat
      AND (u.home_area_longitude BETWEEN p_lon - v_dlon AND p_lon + v_dlon
        OR u.home_area_longitude <= p_lon + v_dlon - 360
        OR u.home_area_longitude >= p_lon - v_dlon + 360)
      AND metres_between(u.home_area_latitude, u.home_area_longitude, p_lat, p_lon) <= p_metres;
END $$;
--> statement-breakpoint
-- A cat marked missing tells the people whose home area lies within 2 km (MISSING_NEAR_METRES,
-- packages/contracts/src/missing-constants.ts) of its last-seen cell, as 'cat_missing_nearby', once each;
-- not its caretakers (they raised it), not the one who raised it. The entries are dated as the alert,
-- which is how 'found' finds them again below.
CREATE FUNCTION notifications_missing_raised() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_people uuid[];
BEGIN
  SELECT coalesce(array_agg(near.id), '{}') INTO v_people
    FROM missing_near_home_areas(NEW.area_latitude, NEW.area_longitude, 2000) AS near(id)
    WHERE NOT EXISTS (SELECT 1 FROM cat_caretakers cc WHERE cc.cat_id = NEW.cat_id AND cc.user_id = near.id);
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
-- A cat marked found ('Back home!') tells everyone who was told it was missing (their cat_missing_nearby
-- entries of this alert: the cat's, dated from the alert on, as one cat has one open alert at a time),
-- its followers and its other caretakers, once each, as 'cat_found'. The caretaker who marked it is the
-- actor. An alert that lapsed unrenewed tells nobody when it is ended.
CREATE FUNCTION notifications_missing_found() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_people uuid[];
BEGIN
  SELECT coalesce(array_agg(DISTINCT p.user_id), '{}') INTO v_people FROM (
    SELECT n.recipient_id AS user_id FROM notifications n
      WHERE n.cat_id = NEW.cat_id AND n.type = 'cat_missing_nearby' AND n.created_at >= NEW.created_at
    UNION SELECT f.user_id FROM cat_follows f WHERE f.cat_id = NEW.cat_id
    UNION SELECT c.user_id FROM cat_caretakers c WHERE c.cat_id = NEW.cat_id
  ) p;
  IF cardinality(v_people) > 0 THEN
    PERFORM add_notifications(
      v_people,
      array_fill('cat_found'::text, ARRAY[cardinality(v_people)]),
      array_fill(NULL::uuid, ARRAY[cardinality(v_people)]),
      NEW.ended_by, NULL, NULL, NEW.ended_at, NEW.cat_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- 'I saw this cat' without a photo tells the cat's caretakers, as 'missing_report' (the reporter is the
-- actor, so a caretaker who shares a block with them is not told, and sees no trace of it). A report
-- with a photo is a post linked to the cat: its cat_sighting entry (migration 0017) tells them.
CREATE FUNCTION notifications_missing_reported() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_cat uuid;
  v_people uuid[];
BEGIN
  SELECT a.cat_id INTO v_cat FROM missing_alerts a WHERE a.id = NEW.alert_id;
  SELECT coalesce(array_agg(c.user_id), '{}') INTO v_people FROM cat_caretakers c WHERE c.cat_id = v_cat;
  IF cardinality(v_people) > 0 THEN
    PERFORM add_notifications(
      v_people,
      array_fill('missing_report'::text, ARRAY[cardinality(v_people)]),
      array_fill(NULL::uuid, ARRAY[cardinality(v_people)]),
      NEW.reporter_id, NULL, NULL, NEW.created_at, v_cat);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER missing_alerts_notify_raised AFTER INSERT ON missing_alerts FOR EACH ROW
  WHEN (NEW.ended_at IS NULL) EXECUTE FUNCTION notifications_missing_raised();
--> statement-breakpoint
CREATE TRIGGER missing_alerts_notify_found AFTER UPDATE OF ended_at ON missing_alerts FOR EACH ROW
  WHEN (OLD.ended_at IS NULL AND NEW.end_reason = 'found') EXECUTE FUNCTION notifications_missing_found();
--> statement-breakpoint
CREATE TRIGGER missing_reports_notify AFTER INSERT ON missing_reports FOR EACH ROW
  EXECUTE FUNCTION notifications_missing_reported();
