CREATE TABLE "post_idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"post_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "post_idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key"),
	CONSTRAINT "post_idempotency_keys_key_length" CHECK (char_length("post_idempotency_keys"."key") between 1 and 255)
);
--> statement-breakpoint
ALTER TABLE "post_idempotency_keys" ADD CONSTRAINT "post_idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_idempotency_keys" ADD CONSTRAINT "post_idempotency_keys_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "post_idempotency_keys_post_idx" ON "post_idempotency_keys" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "post_idempotency_keys_created_idx" ON "post_idempotency_keys" USING btree ("created_at");