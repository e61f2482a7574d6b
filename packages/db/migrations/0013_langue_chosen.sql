ALTER TABLE "users" ADD COLUMN "langue_chosen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Decision 154: an account still at the default (English) counts as not chosen; any other language was set on purpose (by the user's pick at login, or for them), and keeps applying at login as before.
UPDATE "users" SET "langue_chosen" = true WHERE "langue" <> 'en';
