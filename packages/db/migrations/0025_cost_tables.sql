CREATE TABLE "agent_fees" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"office" text NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_until" date,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_fees_amount_check" CHECK ("agent_fees"."amount_minor" >= 0),
	CONSTRAINT "agent_fees_currency_check" CHECK ("agent_fees"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "agent_fees_validity_check" CHECK ("agent_fees"."valid_until" is null or "agent_fees"."valid_until" >= "agent_fees"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "cabinet_service_fees" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cabinet_id" uuid NOT NULL,
	"amount_minor" integer NOT NULL,
	"currency" text NOT NULL,
	"margin_bp" integer,
	"valid_from" date NOT NULL,
	"valid_until" date,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cabinet_service_fees_amount_check" CHECK ("cabinet_service_fees"."amount_minor" >= 0),
	CONSTRAINT "cabinet_service_fees_margin_check" CHECK ("cabinet_service_fees"."margin_bp" is null or ("cabinet_service_fees"."margin_bp" >= 0 and "cabinet_service_fees"."margin_bp" <= 10000)),
	CONSTRAINT "cabinet_service_fees_currency_check" CHECK ("cabinet_service_fees"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "cabinet_service_fees_validity_check" CHECK ("cabinet_service_fees"."valid_until" is null or "cabinet_service_fees"."valid_until" >= "cabinet_service_fees"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "ecb_rate_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	"days" integer NOT NULL,
	"rates" integer NOT NULL,
	"written" integer NOT NULL,
	"imported_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecb_rates" (
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"per_eur" text NOT NULL,
	"import_id" uuid,
	CONSTRAINT "ecb_rates_currency_day_pk" PRIMARY KEY("currency","day"),
	CONSTRAINT "ecb_rates_currency_check" CHECK ("ecb_rates"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "ecb_rates_per_eur_check" CHECK ("ecb_rates"."per_eur" ~ '^[0-9]{1,9}([.][0-9]{1,10})?$' and "ecb_rates"."per_eur"::numeric > 0)
);
--> statement-breakpoint
ALTER TABLE "agent_fees" ADD CONSTRAINT "agent_fees_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cabinet_service_fees" ADD CONSTRAINT "cabinet_service_fees_cabinet_id_cabinets_id_fk" FOREIGN KEY ("cabinet_id") REFERENCES "public"."cabinets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cabinet_service_fees" ADD CONSTRAINT "cabinet_service_fees_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecb_rate_imports" ADD CONSTRAINT "ecb_rate_imports_imported_by_users_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecb_rates" ADD CONSTRAINT "ecb_rates_import_id_ecb_rate_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."ecb_rate_imports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_fees_office_from_uq" ON "agent_fees" USING btree ("office","valid_from");--> statement-breakpoint
CREATE UNIQUE INDEX "cabinet_service_fees_cabinet_from_uq" ON "cabinet_service_fees" USING btree ("cabinet_id","valid_from");