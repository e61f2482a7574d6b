CREATE TABLE "renewal_call_items" (
	"record_id" uuid PRIMARY KEY NOT NULL,
	"call_id" uuid NOT NULL,
	"due_date" date NOT NULL,
	"instruct_before" date NOT NULL,
	"closed_reason" text,
	"closed_on" date,
	CONSTRAINT "renewal_call_items_closed_check" CHECK ("renewal_call_items"."closed_reason" is null or "renewal_call_items"."closed_reason" in ('instructed', 'paid', 'lapsed'))
);
--> statement-breakpoint
CREATE TABLE "renewal_call_settings" (
	"cabinet_id" uuid PRIMARY KEY NOT NULL,
	"window_days" integer DEFAULT 90 NOT NULL,
	"margin_days" integer DEFAULT 30 NOT NULL,
	"reminder_days" integer DEFAULT 14 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_call_settings_window_check" CHECK ("renewal_call_settings"."window_days" between 7 and 366),
	CONSTRAINT "renewal_call_settings_margin_check" CHECK ("renewal_call_settings"."margin_days" between 0 and 180),
	CONSTRAINT "renewal_call_settings_reminder_check" CHECK ("renewal_call_settings"."reminder_days" between 0 and 180)
);
--> statement-breakpoint
CREATE TABLE "renewal_call_steps" (
	"call_id" uuid NOT NULL,
	"step" text NOT NULL,
	"sent_on" date NOT NULL,
	"items" integer NOT NULL,
	"mails" integer NOT NULL,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_call_steps_call_id_step_pk" PRIMARY KEY("call_id","step"),
	CONSTRAINT "renewal_call_steps_step_check" CHECK ("renewal_call_steps"."step" in ('first_call', 'reminder', 'last_call'))
);
--> statement-breakpoint
CREATE TABLE "renewal_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cabinet_id" uuid NOT NULL,
	"client_code" text NOT NULL,
	"opened_on" date NOT NULL,
	"held" boolean DEFAULT false NOT NULL,
	"closed_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "renewal_call_items" ADD CONSTRAINT "renewal_call_items_record_id_patent_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."patent_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_call_items" ADD CONSTRAINT "renewal_call_items_call_id_renewal_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."renewal_calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_call_settings" ADD CONSTRAINT "renewal_call_settings_cabinet_id_cabinets_id_fk" FOREIGN KEY ("cabinet_id") REFERENCES "public"."cabinets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_call_steps" ADD CONSTRAINT "renewal_call_steps_call_id_renewal_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."renewal_calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_call_steps" ADD CONSTRAINT "renewal_call_steps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_calls" ADD CONSTRAINT "renewal_calls_cabinet_id_cabinets_id_fk" FOREIGN KEY ("cabinet_id") REFERENCES "public"."cabinets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "renewal_call_items_call_idx" ON "renewal_call_items" USING btree ("call_id","due_date");--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_calls_open_unique" ON "renewal_calls" USING btree ("cabinet_id","client_code") WHERE "renewal_calls"."closed_on" is null;--> statement-breakpoint
CREATE INDEX "renewal_calls_client_idx" ON "renewal_calls" USING btree ("client_code","opened_on");