CREATE TABLE "ledes_spend" (
	"run_id" uuid NOT NULL,
	"accepted" boolean NOT NULL,
	"month" text NOT NULL,
	"law_firm_id" text NOT NULL,
	"client_id" text NOT NULL,
	"matter_id" text NOT NULL,
	"timekeeper_id" text NOT NULL,
	"timekeeper_name" text NOT NULL,
	"task_code" text NOT NULL,
	"line_type" text NOT NULL,
	"lines" integer NOT NULL,
	"amount" numeric(20, 4) NOT NULL,
	"units" numeric(20, 4) NOT NULL,
	"over_guidelines" numeric(20, 4) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledes_spend_by_dimension" (
	"run_id" uuid NOT NULL,
	"accepted" boolean NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"label" text,
	"month" text NOT NULL,
	"lines" integer NOT NULL,
	"amount" numeric(20, 4) NOT NULL,
	"over_guidelines" numeric(20, 4) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledes_spend" ADD CONSTRAINT "ledes_spend_run_id_ledes_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."ledes_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledes_spend_by_dimension" ADD CONSTRAINT "ledes_spend_by_dimension_run_id_ledes_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."ledes_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledes_spend_run_idx" ON "ledes_spend" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "ledes_spend_firm_idx" ON "ledes_spend" USING btree ("law_firm_id","month");--> statement-breakpoint
CREATE INDEX "ledes_spend_client_idx" ON "ledes_spend" USING btree ("client_id","month");--> statement-breakpoint
CREATE INDEX "ledes_spend_matter_idx" ON "ledes_spend" USING btree ("matter_id","month");--> statement-breakpoint
CREATE INDEX "ledes_spend_timekeeper_idx" ON "ledes_spend" USING btree ("timekeeper_id","month");--> statement-breakpoint
CREATE INDEX "ledes_spend_task_idx" ON "ledes_spend" USING btree ("task_code","month");--> statement-breakpoint
CREATE INDEX "ledes_spend_by_dimension_run_idx" ON "ledes_spend_by_dimension" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "ledes_spend_by_dimension_month_idx" ON "ledes_spend_by_dimension" USING btree ("month","dimension");