CREATE TABLE "activity_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"user_id" integer,
	"actor" text DEFAULT '' NOT NULL,
	"action" text NOT NULL,
	"subject_kind" text,
	"subject_id" text,
	"subject_title" text DEFAULT '' NOT NULL,
	"address" text
);
--> statement-breakpoint
DROP INDEX "galleries_title_key";--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "deleted_by" text;--> statement-breakpoint
ALTER TABLE "galleries" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "galleries" ADD COLUMN "deleted_by" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_log_at_idx" ON "activity_log" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "galleries_title_key" ON "galleries" USING btree ("title") WHERE "galleries"."deleted_at" is null;