CREATE TABLE "devices" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone NOT NULL,
	"user_agent" text
);
--> statement-breakpoint
-- A kept form older than its device cannot name one: it goes (its photo is swept as a stray).
DELETE FROM "kept_forms";--> statement-breakpoint
ALTER TABLE "kept_forms" ADD COLUMN "device_id" text NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "devices_user_idx" ON "devices" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "devices_last_used_idx" ON "devices" USING btree ("last_used_at");--> statement-breakpoint
ALTER TABLE "kept_forms" ADD CONSTRAINT "kept_forms_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;