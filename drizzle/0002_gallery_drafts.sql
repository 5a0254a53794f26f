CREATE TABLE "gallery_draft_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"draft_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"image_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gallery_drafts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"gallery_id" integer,
	"title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"date" text NOT NULL,
	"folder" text NOT NULL,
	"feedback" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gallery_draft_images" ADD CONSTRAINT "gallery_draft_images_draft_id_gallery_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."gallery_drafts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_drafts" ADD CONSTRAINT "gallery_drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gallery_drafts" ADD CONSTRAINT "gallery_drafts_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "gallery_draft_images_draft_key" ON "gallery_draft_images" USING btree ("draft_id","image_key");--> statement-breakpoint
CREATE INDEX "gallery_draft_images_key_idx" ON "gallery_draft_images" USING btree ("image_key");--> statement-breakpoint
CREATE INDEX "gallery_drafts_updated_idx" ON "gallery_drafts" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "gallery_drafts_gallery_idx" ON "gallery_drafts" USING btree ("gallery_id");--> statement-breakpoint
CREATE INDEX "gallery_images_key_idx" ON "gallery_images" USING btree ("image_key");