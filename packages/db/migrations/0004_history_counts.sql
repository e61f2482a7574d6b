CREATE TABLE "ledes_run_counts" (
	"owner_id" uuid PRIMARY KEY NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	"shared_runs" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "ledes_runs_owner_created_idx";--> statement-breakpoint
ALTER TABLE "ledes_run_counts" ADD CONSTRAINT "ledes_run_counts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledes_runs_created_idx" ON "ledes_runs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "ledes_runs_owner_created_idx" ON "ledes_runs" USING btree ("owner_id","created_at","id");--> statement-breakpoint
-- Inserted and deleted runs are counted per statement (a bulk insert touches each owner's row once).
CREATE FUNCTION "ledes_run_counts_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "ledes_run_counts" AS c ("owner_id", "runs", "shared_runs")
	SELECT "owner_id", count(*)::integer, (count(*) FILTER (WHERE "send_history"))::integer FROM "new_runs" GROUP BY "owner_id" ORDER BY "owner_id"
	ON CONFLICT ("owner_id") DO UPDATE SET "runs" = c."runs" + excluded."runs", "shared_runs" = c."shared_runs" + excluded."shared_runs";
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "ledes_run_counts_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "ledes_run_counts" AS c SET "runs" = c."runs" - d."runs", "shared_runs" = c."shared_runs" - d."shared_runs"
	FROM (SELECT "owner_id", count(*)::integer AS "runs", (count(*) FILTER (WHERE "send_history"))::integer AS "shared_runs" FROM "old_runs" GROUP BY "owner_id") d
	WHERE c."owner_id" = d."owner_id";
	RETURN NULL;
END $$;
--> statement-breakpoint
-- Only a change of owner or of history sharing moves a run between counts; state updates do not fire it.
CREATE FUNCTION "ledes_run_counts_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "ledes_run_counts" SET "runs" = "runs" - 1, "shared_runs" = "shared_runs" - (CASE WHEN OLD."send_history" THEN 1 ELSE 0 END)
	WHERE "owner_id" = OLD."owner_id";
	INSERT INTO "ledes_run_counts" AS c ("owner_id", "runs", "shared_runs") VALUES (NEW."owner_id", 1, CASE WHEN NEW."send_history" THEN 1 ELSE 0 END)
	ON CONFLICT ("owner_id") DO UPDATE SET "runs" = c."runs" + 1, "shared_runs" = c."shared_runs" + excluded."shared_runs";
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "ledes_run_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "ledes_run_counts";
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledes_run_counts_insert" AFTER INSERT ON "ledes_runs" REFERENCING NEW TABLE AS "new_runs" FOR EACH STATEMENT EXECUTE FUNCTION "ledes_run_counts_insert"();
--> statement-breakpoint
CREATE TRIGGER "ledes_run_counts_delete" AFTER DELETE ON "ledes_runs" REFERENCING OLD TABLE AS "old_runs" FOR EACH STATEMENT EXECUTE FUNCTION "ledes_run_counts_delete"();
--> statement-breakpoint
CREATE TRIGGER "ledes_run_counts_update" AFTER UPDATE OF "owner_id", "send_history" ON "ledes_runs" FOR EACH ROW
	WHEN (OLD."owner_id" IS DISTINCT FROM NEW."owner_id" OR OLD."send_history" IS DISTINCT FROM NEW."send_history") EXECUTE FUNCTION "ledes_run_counts_update"();
--> statement-breakpoint
CREATE TRIGGER "ledes_run_counts_truncate" AFTER TRUNCATE ON "ledes_runs" FOR EACH STATEMENT EXECUTE FUNCTION "ledes_run_counts_truncate"();
--> statement-breakpoint
INSERT INTO "ledes_run_counts" ("owner_id", "runs", "shared_runs")
SELECT "owner_id", count(*)::integer, (count(*) FILTER (WHERE "send_history"))::integer FROM "ledes_runs" GROUP BY "owner_id";
