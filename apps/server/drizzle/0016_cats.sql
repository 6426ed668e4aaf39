CREATE TABLE "cat_caretakers" (
	"cat_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cat_caretakers_cat_id_user_id_pk" PRIMARY KEY("cat_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "cat_follows" (
	"cat_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cat_follows_cat_id_user_id_pk" PRIMARY KEY("cat_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "cats" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"coat_colours" text[] DEFAULT '{}'::text[] NOT NULL,
	"ear_tipped" text DEFAULT 'unknown' NOT NULL,
	"neutered" text DEFAULT 'unknown' NOT NULL,
	"living" text DEFAULT 'unknown' NOT NULL,
	"cover_post_id" uuid,
	"created_by" uuid,
	"home_latitude" double precision,
	"home_longitude" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cats_name_length" CHECK (char_length("cats"."name") between 1 and 40),
	CONSTRAINT "cats_description_length" CHECK (char_length("cats"."description") <= 500),
	CONSTRAINT "cats_coat_colours" CHECK ("cats"."coat_colours" <@ array['black', 'white', 'grey', 'ginger', 'cream', 'brown', 'tabby', 'tortoiseshell', 'calico', 'bicolour', 'pointed']::text[] and cardinality("cats"."coat_colours") <= 11),
	CONSTRAINT "cats_ear_tipped" CHECK ("cats"."ear_tipped" in ('yes', 'no', 'unknown')),
	CONSTRAINT "cats_neutered" CHECK ("cats"."neutered" in ('yes', 'no', 'unknown')),
	CONSTRAINT "cats_living" CHECK ("cats"."living" in ('household', 'community', 'unknown')),
	CONSTRAINT "cats_home_latitude_range" CHECK ("cats"."home_latitude" is null or "cats"."home_latitude" between -90 and 90),
	CONSTRAINT "cats_home_longitude_range" CHECK ("cats"."home_longitude" is null or "cats"."home_longitude" between -180 and 180),
	CONSTRAINT "cats_home_pair" CHECK (("cats"."home_latitude" is null) = ("cats"."home_longitude" is null))
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "cat_id" uuid;--> statement-breakpoint
ALTER TABLE "cat_caretakers" ADD CONSTRAINT "cat_caretakers_cat_id_cats_id_fk" FOREIGN KEY ("cat_id") REFERENCES "public"."cats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_caretakers" ADD CONSTRAINT "cat_caretakers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_follows" ADD CONSTRAINT "cat_follows_cat_id_cats_id_fk" FOREIGN KEY ("cat_id") REFERENCES "public"."cats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cat_follows" ADD CONSTRAINT "cat_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cats" ADD CONSTRAINT "cats_cover_post_id_posts_id_fk" FOREIGN KEY ("cover_post_id") REFERENCES "public"."posts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cats" ADD CONSTRAINT "cats_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cat_caretakers_user_idx" ON "cat_caretakers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "cat_follows_user_idx" ON "cat_follows" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "cats_name_lower_idx" ON "cats" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "cats_cover_post_idx" ON "cats" USING btree ("cover_post_id") WHERE "cats"."cover_post_id" is not null;--> statement-breakpoint
CREATE INDEX "cats_created_by_idx" ON "cats" USING btree ("created_by") WHERE "cats"."created_by" is not null;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_cat_id_cats_id_fk" FOREIGN KEY ("cat_id") REFERENCES "public"."cats"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "posts_cat_timeline_idx" ON "posts" USING btree ("cat_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."cat_id" is not null;