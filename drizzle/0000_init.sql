CREATE TABLE "articles" (
	"id" text PRIMARY KEY NOT NULL,
	"header" text NOT NULL,
	"text" text NOT NULL,
	"date" text NOT NULL,
	"image_key" text,
	"image_width" integer,
	"image_height" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "galleries" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"date" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gallery_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"gallery_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"image_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "history_photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gallery_images" ADD CONSTRAINT "gallery_images_gallery_id_galleries_id_fk" FOREIGN KEY ("gallery_id") REFERENCES "public"."galleries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "articles_date_idx" ON "articles" USING btree ("date","id");--> statement-breakpoint
CREATE UNIQUE INDEX "galleries_title_key" ON "galleries" USING btree ("title");--> statement-breakpoint
CREATE INDEX "galleries_date_idx" ON "galleries" USING btree ("date","id");--> statement-breakpoint
CREATE INDEX "gallery_images_gallery_position_idx" ON "gallery_images" USING btree ("gallery_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));