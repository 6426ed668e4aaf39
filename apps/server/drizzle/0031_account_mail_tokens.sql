CREATE TABLE "account_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"new_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "account_tokens_purpose" CHECK ("account_tokens"."purpose" in ('password_reset', 'email_change')),
	CONSTRAINT "account_tokens_new_email" CHECK (("account_tokens"."purpose" = 'email_change') = ("account_tokens"."new_email" is not null)),
	CONSTRAINT "account_tokens_hash_length" CHECK (char_length("account_tokens"."token_hash") = 64)
);
--> statement-breakpoint
CREATE TABLE "mail_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"address_lower" text NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_sends_purpose" CHECK ("mail_sends"."purpose" in ('password_reset', 'email_change'))
);
--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_sends" ADD CONSTRAINT "mail_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_tokens_hash_idx" ON "account_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "account_tokens_user_idx" ON "account_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "mail_sends_address_idx" ON "mail_sends" USING btree ("address_lower","sent_at");--> statement-breakpoint
CREATE INDEX "mail_sends_user_idx" ON "mail_sends" USING btree ("user_id","sent_at");--> statement-breakpoint
CREATE INDEX "mail_sends_sent_idx" ON "mail_sends" USING btree ("sent_at");