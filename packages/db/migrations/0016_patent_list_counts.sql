CREATE TABLE "patent_tab_counts" (
	"cabinet_id" uuid NOT NULL,
	"client_code" text NOT NULL,
	"has_instruction" boolean NOT NULL,
	"patents" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"missing" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "patent_tab_counts_cabinet_id_client_code_has_instruction_pk" PRIMARY KEY("cabinet_id","client_code","has_instruction")
);
--> statement-breakpoint
ALTER TABLE "patent_tab_counts" ADD CONSTRAINT "patent_tab_counts_cabinet_id_cabinets_id_fk" FOREIGN KEY ("cabinet_id") REFERENCES "public"."cabinets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patent_records_missing_numero_depot_idx" ON "patent_records" USING btree ("numero_depot","id") WHERE coalesce("patent_records"."numero_depot", '') = '' or coalesce("patent_records"."numero_publication", '') = '' or coalesce("patent_records"."reference_client", '') = '';--> statement-breakpoint
CREATE INDEX "patent_records_missing_numero_publication_idx" ON "patent_records" USING btree ("numero_publication","id") WHERE coalesce("patent_records"."numero_depot", '') = '' or coalesce("patent_records"."numero_publication", '') = '' or coalesce("patent_records"."reference_client", '') = '';--> statement-breakpoint
CREATE INDEX "patent_records_missing_pays_idx" ON "patent_records" USING btree ("pays","id") WHERE coalesce("patent_records"."numero_depot", '') = '' or coalesce("patent_records"."numero_publication", '') = '' or coalesce("patent_records"."reference_client", '') = '';--> statement-breakpoint
CREATE INDEX "patent_records_to_validate_numero_publication_idx" ON "patent_records" USING btree ("numero_publication","id") WHERE "patent_records"."instruction_status" = 'processed';--> statement-breakpoint
CREATE INDEX "patent_records_to_validate_reference_client_idx" ON "patent_records" USING btree ("reference_client","id") WHERE "patent_records"."instruction_status" = 'processed';--> statement-breakpoint
CREATE INDEX "patent_records_to_validate_instruction_id_idx" ON "patent_records" USING btree ("instruction_id","id") WHERE "patent_records"."instruction_status" = 'processed';--> statement-breakpoint
CREATE INDEX "patent_records_to_validate_donneur_ordre_idx" ON "patent_records" USING btree ("donneur_ordre","id") WHERE "patent_records"."instruction_status" = 'processed';--> statement-breakpoint
CREATE INDEX "patent_records_to_validate_donneur_ordre_an_idx" ON "patent_records" USING btree ("donneur_ordre_an","id") WHERE "patent_records"."instruction_status" = 'processed';--> statement-breakpoint
CREATE INDEX "patent_records_to_validate_date_echeance_idx" ON "patent_records" USING btree ("date_echeance","id") WHERE "patent_records"."instruction_status" = 'processed';--> statement-breakpoint
CREATE INDEX "patent_records_to_validate_pays_idx" ON "patent_records" USING btree ("pays","id") WHERE "patent_records"."instruction_status" = 'processed';--> statement-breakpoint
-- Hand-written from here (decision 174): the counts are kept per statement from the transition tables, so a bulk
-- import or update touches each (cabinet, code, tab) row once, in key order (no deadlock between two writers).
CREATE FUNCTION "patent_tab_counts_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "patent_tab_counts" AS c ("cabinet_id", "client_code", "has_instruction", "patents", "processed", "missing")
	SELECT "cabinet_id", "client_code", "has_instruction", sum("patents")::integer, sum("processed")::integer, sum("missing")::integer FROM (
		SELECT "cabinet_id", "client_code", "has_instruction", 1 AS "patents", ("instruction_status" = 'processed')::integer AS "processed", (coalesce("numero_depot", '') = '' OR coalesce("numero_publication", '') = '' OR coalesce("reference_client", '') = '')::integer AS "missing" FROM "new_patents"
	) d
	GROUP BY "cabinet_id", "client_code", "has_instruction"
	HAVING sum("patents") <> 0 OR sum("processed") <> 0 OR sum("missing") <> 0
	ORDER BY "cabinet_id", "client_code", "has_instruction"
	ON CONFLICT ("cabinet_id", "client_code", "has_instruction") DO UPDATE
	SET "patents" = c."patents" + excluded."patents", "processed" = c."processed" + excluded."processed", "missing" = c."missing" + excluded."missing";
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "patent_tab_counts_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "patent_tab_counts" AS c ("cabinet_id", "client_code", "has_instruction", "patents", "processed", "missing")
	SELECT "cabinet_id", "client_code", "has_instruction", sum("patents")::integer, sum("processed")::integer, sum("missing")::integer FROM (
		SELECT "cabinet_id", "client_code", "has_instruction", -1 AS "patents", -("instruction_status" = 'processed')::integer AS "processed", -(coalesce("numero_depot", '') = '' OR coalesce("numero_publication", '') = '' OR coalesce("reference_client", '') = '')::integer AS "missing" FROM "old_patents"
	) d
	GROUP BY "cabinet_id", "client_code", "has_instruction"
	HAVING sum("patents") <> 0 OR sum("processed") <> 0 OR sum("missing") <> 0
	ORDER BY "cabinet_id", "client_code", "has_instruction"
	ON CONFLICT ("cabinet_id", "client_code", "has_instruction") DO UPDATE
	SET "patents" = c."patents" + excluded."patents", "processed" = c."processed" + excluded."processed", "missing" = c."missing" + excluded."missing";
	RETURN NULL;
END $$;
--> statement-breakpoint
-- Every update statement (a changed instruction moves a patent between tabs): old rows out, new rows in, nets only.
CREATE FUNCTION "patent_tab_counts_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "patent_tab_counts" AS c ("cabinet_id", "client_code", "has_instruction", "patents", "processed", "missing")
	SELECT "cabinet_id", "client_code", "has_instruction", sum("patents")::integer, sum("processed")::integer, sum("missing")::integer FROM (
		SELECT "cabinet_id", "client_code", "has_instruction", 1 AS "patents", ("instruction_status" = 'processed')::integer AS "processed", (coalesce("numero_depot", '') = '' OR coalesce("numero_publication", '') = '' OR coalesce("reference_client", '') = '')::integer AS "missing" FROM "new_patents"
		UNION ALL
		SELECT "cabinet_id", "client_code", "has_instruction", -1 AS "patents", -("instruction_status" = 'processed')::integer AS "processed", -(coalesce("numero_depot", '') = '' OR coalesce("numero_publication", '') = '' OR coalesce("reference_client", '') = '')::integer AS "missing" FROM "old_patents"
	) d
	GROUP BY "cabinet_id", "client_code", "has_instruction"
	HAVING sum("patents") <> 0 OR sum("processed") <> 0 OR sum("missing") <> 0
	ORDER BY "cabinet_id", "client_code", "has_instruction"
	ON CONFLICT ("cabinet_id", "client_code", "has_instruction") DO UPDATE
	SET "patents" = c."patents" + excluded."patents", "processed" = c."processed" + excluded."processed", "missing" = c."missing" + excluded."missing";
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "patent_tab_counts_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "patent_tab_counts";
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "patent_tab_counts_insert" AFTER INSERT ON "patent_records" REFERENCING NEW TABLE AS "new_patents" FOR EACH STATEMENT EXECUTE FUNCTION "patent_tab_counts_insert"();
--> statement-breakpoint
CREATE TRIGGER "patent_tab_counts_delete" AFTER DELETE ON "patent_records" REFERENCING OLD TABLE AS "old_patents" FOR EACH STATEMENT EXECUTE FUNCTION "patent_tab_counts_delete"();
--> statement-breakpoint
CREATE TRIGGER "patent_tab_counts_update" AFTER UPDATE ON "patent_records" REFERENCING OLD TABLE AS "old_patents" NEW TABLE AS "new_patents" FOR EACH STATEMENT EXECUTE FUNCTION "patent_tab_counts_update"();
--> statement-breakpoint
CREATE TRIGGER "patent_tab_counts_truncate" AFTER TRUNCATE ON "patent_records" FOR EACH STATEMENT EXECUTE FUNCTION "patent_tab_counts_truncate"();
--> statement-breakpoint
INSERT INTO "patent_tab_counts" ("cabinet_id", "client_code", "has_instruction", "patents", "processed", "missing")
SELECT "cabinet_id", "client_code", "has_instruction", count(*)::integer, (count(*) FILTER (WHERE "instruction_status" = 'processed'))::integer,
	(count(*) FILTER (WHERE (coalesce("numero_depot", '') = '' OR coalesce("numero_publication", '') = '' OR coalesce("reference_client", '') = '')))::integer
FROM "patent_records" GROUP BY "cabinet_id", "client_code", "has_instruction";
