CREATE TABLE "event_exceptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"occurrence_date" text NOT NULL,
	"kind" text NOT NULL,
	"moved_date" text,
	"moved_time" text,
	"moved_end_time" text
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"place" text DEFAULT '' NOT NULL,
	"start_date" text NOT NULL,
	"start_time" text,
	"end_time" text,
	"end_date" text,
	"image_key" text,
	"image_width" integer,
	"image_height" integer,
	"repeat" text DEFAULT 'none' NOT NULL,
	"interval" integer DEFAULT 1 NOT NULL,
	"weekdays" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"month_week" integer,
	"until_date" text,
	"count" integer,
	"publish_at" timestamp with time zone DEFAULT now(),
	"deleted_at" timestamp with time zone,
	"deleted_by" text,
	"sequence" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_exceptions" ADD CONSTRAINT "event_exceptions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_exceptions_occurrence_key" ON "event_exceptions" USING btree ("event_id","occurrence_date");--> statement-breakpoint
CREATE INDEX "events_publish_at_idx" ON "events" USING btree ("publish_at");--> statement-breakpoint
CREATE INDEX "events_start_date_idx" ON "events" USING btree ("start_date");