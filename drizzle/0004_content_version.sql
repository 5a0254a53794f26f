CREATE TABLE "content_version" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
