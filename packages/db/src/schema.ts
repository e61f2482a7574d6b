import { sql, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, bigint, boolean, check, customType, date, index, integer, jsonb, numeric, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const RUN_STATES = ['in_progress', 'Done', 'Error'] as const;
export type RunState = (typeof RUN_STATES)[number];

/**
 * The columns every background run table shares (the run kind of `@portal/jobs`, decision 159):
 * the state the worker owns (in_progress → Done | Error), the reason code of an Error, the attempts,
 * the timestamps the sweep reads (`updated_at` is the heartbeat) and the lease (decision 160): the
 * execution holding it, and until when, is the only one that may process the run.
 */
export const runColumns = () => ({
  state: text('state', { enum: RUN_STATES }).notNull().default('in_progress'),
  errorCode: text('error_code'),
  attempts: integer('attempts').notNull().default(0),
  createdAt: createdAt(),
  startedAt: timestamp('started_at', { withTimezone: true }),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  leaseHolder: text('lease_holder'),
  leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
});

export const roles = pgTable('roles', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
});

export const cabinets = pgTable('cabinets', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyAgent: text('company_agent').notNull(),
    /** Stored lower-cased; the unique index makes "already exists" a database fact, not a race. */
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    /** The language of the user's mails; the interface's at login only once `langue_chosen` (decision 154). */
    langue: text('langue', { enum: ['en', 'fr'] }).notNull().default('en'),
    /** Whether the user picked `langue` (switcher before a login); a default or an admin's pick never overrides the browser. */
    langueChosen: boolean('langue_chosen').notNull().default(false),
    idClient: text('id_client').array().notNull().default(sql`'{}'::text[]`),
    code: text('code').array().notNull().default(sql`'{}'::text[]`),
    /** Mails the user opted in to, from their account (issue 31 §3): one of their LEDES files refused, one delivered to step 2. */
    notifyLedesRefused: boolean('notify_ledes_refused').notNull().default(false),
    notifyLedesDelivered: boolean('notify_ledes_delivered').notNull().default(false),
    /** An admin's daily digest of the LEDES runs (runs, refusals, top findings). */
    notifyLedesDigest: boolean('notify_ledes_digest').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id').notNull().references(() => roles.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

export const userCabinets = pgTable(
  'user_cabinets',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    cabinetId: uuid('cabinet_id').notNull().references(() => cabinets.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.cabinetId] })],
);

/** Server-side sessions: the cookie holds a random token, the row holds only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Reset and first-connection links: single use, short-lived, only the SHA-256 of the token is kept. */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    purpose: text('purpose', { enum: ['reset', 'first_connection'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('password_tokens_user_idx').on(t.userId)],
);

export const agentAddresses = pgTable('agent_addresses', {
  id: uuid('id').primaryKey().defaultRandom(),
  idClient: text('id_client').notNull().unique(),
  destinataireLibelle: text('destinataire_libelle').notNull(),
  ligne01Libelle: text('ligne01_libelle').notNull(),
  ligne02Libelle: text('ligne02_libelle'),
  villeLibelle: text('ville_libelle').notNull(),
  paysCode: text('pays_code').notNull(),
  codePostal: text('code_postal').notNull(),
  devise: text('devise').notNull(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const MAIL_TEMPLATE_VALUES = [
  'reset_password',
  'first_connection',
  'contact',
  'new_case',
  'patent_instructions_confirmation',
  'patent_reminder',
  'patent_submission_rejected',
  'ledes_refused',
  'ledes_delivered',
  'ledes_digest',
  'renewal_call',
] as const;

/**
 * Outgoing mail: the row is written in the same transaction as the action that causes it, the queue
 * carries only its id, and `sent_at` makes the mail worker idempotent.
 */
export const mails = pgTable(
  'mails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipient: text('recipient').notNull(),
    template: text('template', { enum: MAIL_TEMPLATE_VALUES }).notNull(),
    locale: text('locale', { enum: ['en', 'fr'] }).notNull(),
    params: jsonb('params').$type<Record<string, string>>().notNull(),
    replyTo: text('reply_to'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('mails_unsent_idx').on(t.createdAt).where(sql`${t.sentAt} is null`)],
);

/**
 * The LEDES daily digests sent (issue 31 §3): one per admin and day, written with its mail in one transaction, so a
 * second run of the day's job (a retry, the embedded timer's hourly run) sends nothing twice.
 */
export const ledesDigests = pgTable(
  'ledes_digests',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    mailId: uuid('mail_id').notNull().references(() => mails.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** A file from storage sent with a mail (the new-case file), written with the mail's row. */
export const mailAttachments = pgTable(
  'mail_attachments',
  {
    mailId: uuid('mail_id').notNull().references(() => mails.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    storageKey: text('storage_key').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.mailId, t.position] }), index('mail_attachments_key_idx').on(t.storageKey)],
);

/** The three offices of the LEDES screen; labels in both languages. */
export const ledesOffices = pgTable('ledes_offices', {
  code: text('code').primaryKey(),
  labelEn: text('label_en').notNull(),
  labelFr: text('label_fr').notNull(),
  position: integer('position').notNull().default(0),
});

/**
 * What the engine applies per (office, invoice type): code sets, tolerance, decimals, severity
 * overrides. Stored as the engine's own JSON profile so support can tune it without a release.
 */
export const ledesProfiles = pgTable(
  'ledes_profiles',
  {
    office: text('office').notNull().references(() => ledesOffices.code, { onDelete: 'cascade' }),
    type: text('type', { enum: ['patent', 'trademark', 'annuites'] }).notNull(),
    profile: jsonb('profile').$type<Record<string, unknown>>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.office, t.type] })],
);

/**
 * One uploaded LEDES file and its check. The worker owns every state change
 * (in_progress → Done | Error); this row, not the queue, is the truth.
 */
export const ledesRuns = pgTable(
  'ledes_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    submittedBy: uuid('submitted_by').references(() => users.id, { onDelete: 'set null' }),
    /** History name: YYYY_MM_DD_HH_mm_ss_<original file name>, split on underscores by the history screen. */
    name: text('name').notNull(),
    originalName: text('original_name').notNull(),
    originalKey: text('original_key').notNull().unique(),
    treatedKey: text('treated_key').unique(),
    /**
     * The treated workbook's key while it is being stored (decision 212): set before the put, cleared in the statement
     * that records `treated_key`, so an object stored by an execution stopped before its record still belongs to the
     * run (the storage clean-up and the fault suite's stray check read it); the next execution finds and records it.
     */
    treatedPendingKey: text('treated_pending_key'),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    office: text('office').notNull(),
    type: text('type', { enum: ['patent', 'trademark', 'annuites'] }).notNull(),
    idClient: text('id_client'),
    clientDestinataire: text('client_destinataire'),
    sendHistory: boolean('send_history').notNull().default(true),
    sendServer: boolean('send_server').notNull().default(true),
    linesChecked: integer('lines_checked').notNull().default(0),
    accepted: boolean('accepted'),
    /*
     * The findings' summary, written once when the run finishes, so that a history page reads only
     * run rows however many findings a run has: lines with an error (file and header included), data
     * lines refused, warnings, and the first lines of each kind the history item lists.
     */
    errorLineCount: integer('error_line_count').notNull().default(0),
    refusedLineCount: integer('refused_line_count').notNull().default(0),
    warningCount: integer('warning_count').notNull().default(0),
    firstErrorLines: integer('first_error_lines').array().notNull().default(sql`'{}'::integer[]`),
    firstOkLines: integer('first_ok_lines').array().notNull().default(sql`'{}'::integer[]`),
    format: text('format'),
    deliveredKey: text('delivered_key'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** The client's guideline versions the file's invoices were checked against (issue 31 §1); empty without guidelines. */
    guidelineVersions: jsonb('guideline_versions').$type<{ id: string; version: number; effective_from: string }[]>().notNull().default(sql`'[]'::jsonb`),
    ...runColumns(),
  },
  (t) => [
    // A user's runs newest first whether shared or not (the admin's view of one user), ties by id as the list orders them.
    index('ledes_runs_owner_created_idx').on(t.ownerId, t.createdAt, t.id),
    // Everyone's runs newest first (the admin log): the page reads 20 index entries, not a sort of every run.
    index('ledes_runs_created_idx').on(t.createdAt, t.id),
    index('ledes_runs_state_idx').on(t.state, t.createdAt),
    // A user's history: its count and its newest-first page read this narrow index, not the run rows.
    index('ledes_runs_history_idx').on(t.ownerId, t.createdAt, t.id).where(sql`${t.sendHistory}`),
    // The admin log's other sorts, both directions (decision 183): the name, the state's badge, and the office and
    // type (read one value after another in the order of their labels, each value's runs by date).
    index('ledes_runs_name_idx').on(sql`lower(${t.originalName})`, t.createdAt, t.id),
    index('ledes_runs_badge_idx').on(ledesRunBadge(t), t.createdAt, t.id),
    index('ledes_runs_office_created_idx').on(t.office, t.createdAt, t.id),
    index('ledes_runs_type_created_idx').on(t.type, t.createdAt, t.id),
    // The history's search of the file name (decision 187): trigrams, so that a search reads the runs it matches.
    index('ledes_runs_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

/**
 * The badge order of a run in the LEDES screens: in progress 0, error 1, refused 2, accepted 3. The history's state
 * sort orders by this very expression, which `ledes_runs_badge_idx` indexes (an index on an expression serves only
 * a query with the same expression: keep the constants inline, never as parameters).
 */
export function ledesRunBadge(t: { state: AnyPgColumn; accepted: AnyPgColumn; errorLineCount: AnyPgColumn }): SQL {
  return sql`(case when ${t.state} = 'in_progress' then 0 when ${t.state} = 'Error' then 1 when ${t.accepted} = false or (${t.accepted} is null and ${t.errorLineCount} > 0) then 2 else 3 end)`;
}

/** Findings by rule code and field; labels come from the engine's catalogue when shown. */
export const ledesFindings = pgTable(
  'ledes_findings',
  {
    runId: uuid('run_id').notNull().references(() => ledesRuns.id, { onDelete: 'cascade' }),
    /** 0-based data line; -2 the file as a whole, -1 its header record. */
    line: integer('line').notNull(),
    code: text('code').notNull(),
    champ: text('champ').notNull(),
    severity: text('severity', { enum: ['error', 'warning'] }).notNull(),
    /** The values that decided the finding, when one did: found, expected, difference (found − expected). */
    found: text('found'),
    expected: text('expected'),
    difference: text('difference'),
    /** Client guidelines (GDL-1xx): the total over the cap, and the rule's reference in the client's set. */
    over: text('over'),
    reference: text('reference'),
  },
  (t) => [primaryKey({ columns: [t.runId, t.line, t.code, t.champ] })],
);

/**
 * A client's billing guidelines (issue 31 §1): one row per version, in force from `effective_from` until the
 * next version's. A version is never edited: a change is a new version, so a run names what it was checked against.
 */
export const ledesGuidelines = pgTable(
  'ledes_guidelines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    idClient: text('id_client').notNull(),
    version: integer('version').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    /** The engine's `GuidelineRule[]`, validated by the API's schema before it is stored. */
    rules: jsonb('rules').$type<Record<string, unknown>[]>().notNull(),
    note: text('note'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ledes_guidelines_client_version_unique').on(t.idClient, t.version), index('ledes_guidelines_client_from_idx').on(t.idClient, t.effectiveFrom)],
);

/**
 * What accepted files billed, for the cross-invoice guidelines: units per firm, timekeeper and day (`kind` 'u',
 * `units` their sum in the file) and the firm's lines by timekeeper, date, units and description (`kind` 'd').
 * Keys are the engine's (`unitsKey`, `lineKey`) hashed (md5), so the index stays narrow whatever the descriptions;
 * a lookup is one index probe per key.
 */
export const ledesGuidelineIndex = pgTable(
  'ledes_guideline_index',
  {
    runId: uuid('run_id').notNull().references(() => ledesRuns.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['u', 'd'] }).notNull(),
    keyHash: text('key_hash').notNull(),
    units: text('units'),
  },
  (t) => [index('ledes_guideline_index_key_idx').on(t.kind, t.keyHash), index('ledes_guideline_index_run_idx').on(t.runId)],
);

/**
 * A counter of the commits that add to the firms' guideline history (decision 221): each accepted run takes the next
 * value under its firms' locks before writing its entries, and a check notes the value it read under the same locks
 * (shared) while asking the history. At commit, an unchanged value means nothing was added since the check asked:
 * the history need not be asked again.
 */
export const ledesGuidelineEpoch = pgSequence('ledes_guideline_epoch');

/**
 * Invoice numbers of accepted files, per portal client: the source of the duplicate check (CON-007).
 * `scope` is the run's id_client (or `user:<owner id>` when it has none), so one client never learns
 * another's numbers; the unique index makes "already accepted" a database fact, not a race.
 */
export const ledesInvoices = pgTable(
  'ledes_invoices',
  {
    runId: uuid('run_id').notNull().references(() => ledesRuns.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    /** The CLIENT_ID field of the invoice in the file. */
    clientId: text('client_id').notNull(),
    invoiceNumber: text('invoice_number').notNull(),
    total: text('total'),
  },
  (t) => [primaryKey({ columns: [t.runId, t.clientId, t.invoiceNumber] }), uniqueIndex('ledes_invoices_scope_number_unique').on(t.scope, t.invoiceNumber)],
);

/**
 * Spend analytics (issue 31 §2, decision 206): a finished run's lines rolled up per month, law firm, client,
 * matter, timekeeper, UTBMS task and line type, written in the transaction that moves the run to Done.
 * `accepted` false: the amounts refused. Amounts are exact decimals (LEDES has at most 4 decimals). The analytics
 * aggregate these rows (a few per invoice), never the lines; a deleted run takes its rows with it.
 */
export const ledesSpend = pgTable(
  'ledes_spend',
  {
    runId: uuid('run_id').notNull().references(() => ledesRuns.id, { onDelete: 'cascade' }),
    accepted: boolean('accepted').notNull(),
    /** YYYY-MM of LINE_ITEM_DATE (BILLING_END_DATE when the line's date is not a date; '' when neither is). */
    month: text('month').notNull(),
    lawFirmId: text('law_firm_id').notNull(),
    clientId: text('client_id').notNull(),
    matterId: text('matter_id').notNull(),
    timekeeperId: text('timekeeper_id').notNull(),
    timekeeperName: text('timekeeper_name').notNull(),
    taskCode: text('task_code').notNull(),
    lineType: text('line_type').notNull(),
    lines: integer('lines').notNull(),
    amount: numeric('amount', { precision: 20, scale: 4 }).notNull(),
    units: numeric('units', { precision: 20, scale: 4 }).notNull(),
    /** Σ of the guideline findings' total over the cap on these lines (the seam of decision 206). */
    overGuidelines: numeric('over_guidelines', { precision: 20, scale: 4 }).notNull().default('0'),
  },
  (t) => [
    index('ledes_spend_run_idx').on(t.runId),
    // A filtered answer reads the rows of the value it names (decision 206), by month.
    index('ledes_spend_firm_idx').on(t.lawFirmId, t.month),
    index('ledes_spend_client_idx').on(t.clientId, t.month),
    index('ledes_spend_matter_idx').on(t.matterId, t.month),
    index('ledes_spend_timekeeper_idx').on(t.timekeeperId, t.month),
    index('ledes_spend_task_idx').on(t.taskCode, t.month),
  ],
);

/**
 * The same rollup per dimension alone (decision 206): a run's rows of `ledes_spend` summed per (dimension, value,
 * month), written with them. The analytics with no filter but a period read these, a few per value and month,
 * whatever the combinations of firm × matter × timekeeper × task the lines had.
 */
export const ledesSpendByDimension = pgTable(
  'ledes_spend_by_dimension',
  {
    runId: uuid('run_id').notNull().references(() => ledesRuns.id, { onDelete: 'cascade' }),
    accepted: boolean('accepted').notNull(),
    dimension: text('dimension', { enum: ['law_firm', 'client', 'matter', 'timekeeper', 'task', 'month'] }).notNull(),
    key: text('key').notNull(),
    /** The timekeeper's name (the first seen in the run); null for the other dimensions. */
    label: text('label'),
    month: text('month').notNull(),
    lines: integer('lines').notNull(),
    amount: numeric('amount', { precision: 20, scale: 4 }).notNull(),
    overGuidelines: numeric('over_guidelines', { precision: 20, scale: 4 }).notNull().default('0'),
  },
  (t) => [index('ledes_spend_by_dimension_run_idx').on(t.runId), index('ledes_spend_by_dimension_month_idx').on(t.month, t.dimension)],
);

/**
 * How many runs each user has, all of them and those shared to the history (`send_history`): the
 * total of a history page without counting the user's runs on every request. Kept by triggers on
 * `ledes_runs` (migration 0004) in the same transaction as the run's insert, update or delete, so it
 * is never stale and no code path can forget it.
 */
export const ledesRunCounts = pgTable('ledes_run_counts', {
  ownerId: uuid('owner_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  runs: integer('runs').notNull().default(0),
  sharedRuns: integer('shared_runs').notNull().default(0),
});

/**
 * One uploaded annuity spreadsheet and its check. The worker owns the state (in_progress → Done |
 * Error); the row, not the queue, is the truth. `export_stale` is set by an edit or a bulk comment
 * and cleared by the job that rewrites the export from the current patents.
 */
export const annuityFiles = pgTable(
  'annuity_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    title: text('title'),
    importName: text('import_name').notNull(),
    exportName: text('export_name').notNull(),
    importKey: text('import_key').notNull().unique(),
    exportKey: text('export_key').unique(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    rowsDone: integer('rows_done').notNull().default(0),
    rowsTotal: integer('rows_total'),
    countOk: integer('count_ok').notNull().default(0),
    countNok: integer('count_nok').notNull().default(0),
    countOrange: integer('count_orange').notNull().default(0),
    countNoDate: integer('count_no_date').notNull().default(0),
    /**
     * How many of its rows are portfolio patents (`annuity_patents.patent_key`, linked when the check ends, decision
     * 214): none, and the ledger moves none of its colours, so its lists ask the ledger nothing (decision 233).
     */
    linkedRows: integer('linked_rows').notNull().default(0),
    /** The engine's reference date (the day of the check), YYYY-MM-DD: "checked on". */
    referenceDate: text('reference_date'),
    exportStale: boolean('export_stale').notNull().default(false),
    /** Bumped by each edit; the export job records the version it wrote, so a later edit is never lost. */
    editVersion: integer('edit_version').notNull().default(0),
    exportVersion: integer('export_version').notNull().default(0),
    ...runColumns(),
  },
  (t) => [
    index('annuity_files_owner_created_idx').on(t.ownerId, t.createdAt, t.id),
    index('annuity_files_created_idx').on(t.createdAt, t.id),
    // The list's sort by name (then date), a user's and an admin's, both ways (decision 178).
    index('annuity_files_owner_name_idx').on(t.ownerId, t.importName, t.createdAt, t.id),
    index('annuity_files_name_idx').on(t.importName, t.createdAt, t.id),
    index('annuity_files_state_idx').on(t.state, t.updatedAt),
  ],
);

/** One row of an annuity spreadsheet, as the engine read and computed it; (file, row) is unique. */
export const annuityPatents = pgTable(
  'annuity_patents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileId: uuid('file_id').notNull().references(() => annuityFiles.id, { onDelete: 'cascade' }),
    /** 0-based index of the data row over all sheets, in reading order. */
    rowIndex: integer('row_index').notNull(),
    sheet: text('sheet').notNull(),
    rowNumber: integer('row_number').notNull(),
    numPublication: text('num_publication'),
    numDepot: text('num_depot'),
    reference: text('reference'),
    nom: text('nom'),
    pays: text('pays'),
    payeur: text('payeur'),
    url: text('url'),
    publie: text('publie'),
    office: text('office'),
    origin: text('origin'),
    dechu: boolean('dechu').notNull().default(false),
    expired: boolean('expired').notNull().default(false),
    inGraceWithSurcharge: boolean('in_grace_with_surcharge').notNull().default(false),
    /** A lapsed row only: the annuity left unpaid (its year number) and its *lost after* day (issue 26). */
    missedNumber: integer('missed_number'),
    missedLostAfter: text('missed_lost_after'),
    /** Dates as YYYY-MM-DD text: sortable, no time zone. */
    dateDepot: text('date_depot'),
    moisDateDepot: integer('mois_date_depot'),
    datePrecedenteAnnuite: text('date_precedente_annuite'),
    quantPrecedent: integer('quant_precedent'),
    dateProchaineAnnuite: text('date_prochaine_annuite'),
    nextNumber: integer('next_number'),
    instructionLimit: text('instruction_limit'),
    limiteDateProchaineAnnuite: text('limite_date_prochaine_annuite'),
    fee: text('fee'),
    currency: text('currency'),
    colour: text('colour', { enum: ['ok', 'nok', 'orange', 'no_date'] }).notNull(),
    reasons: text('reasons').array().notNull().default(sql`'{}'::text[]`),
    flags: text('flags').array().notNull().default(sql`'{}'::text[]`),
    commentaire: text('commentaire'),
    edited: boolean('edited').notNull().default(false),
    /** Lower-cased publication, filing number, reference, name and country: what the search reads. */
    searchText: text('search_text').notNull().default(''),
    /**
     * The portfolio patent this row is (its ledger key, `patent_ledger.patent_key`), linked when the check ends by the
     * office and the normalised publication (else application) number (decision 214); null: none. The patents-by-file
     * list reads the ledger's year `next_number` of it for the row's colour and status.
     */
    patentKey: text('patent_key'),
  },
  (t) => [
    uniqueIndex('annuity_patents_file_row_unique').on(t.fileId, t.rowIndex),
    // Substring search (`like '%…%'`) over number, reference, name and country: trigrams (pg_trgm) on
    // PostgreSQL only. The embedded database (PGlite) drops this index (migration 0018, decision 176):
    // its upkeep ran on the API's thread and made a big file's inserts ~4x slower; a search there scans
    // the file's rows (file_id first in the plan).
    index('annuity_patents_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    // The colour filter and the colour sort (file order within a colour). The other sorts of the patents-by-file
    // modal have no index (decision 190: the twelve of decision 178 were ~58 % of a big file's inserts' CPU on
    // PGlite): a file's order per column is computed once per version of the file and paged by (file, row) keys.
    index('annuity_patents_file_colour_idx').on(t.fileId, t.colour, t.rowIndex),
    // A file's rows that are portfolio patents, with what the ledger's colour needs (decision 233): the counts, the
    // colour filter and the colour sort read the ledger through them, an index-only scan of the linked rows alone.
    index('annuity_patents_file_linked_idx').on(t.fileId, t.patentKey, t.nextNumber, t.rowIndex, t.colour).where(sql`${t.patentKey} is not null`),
  ],
);

/**
 * The four payment instructions an agent can give on a patent (spec §3 "Payment instruction"): a title
 * and its tooltip per language, kept apart here and joined by a colon on the wire. Seeded by migration
 * 0007 (ids 1 to 4 are part of the contract with the back office); `appends_next_year` marks the third,
 * whose title gets the year after the current one at read time.
 */
export const paymentInstructions = pgTable('payment_instructions', {
  id: integer('id').primaryKey(),
  titleFr: text('title_fr').notNull(),
  titleEn: text('title_en').notNull(),
  tooltipFr: text('tooltip_fr').notNull(),
  tooltipEn: text('tooltip_en').notNull(),
  appendsNextYear: boolean('appends_next_year').notNull().default(false),
});

/** `checkRecord`'s disagreement codes (`@portal/annuities`), as stored in `patent_records.schedule_code`. */
export const SCHEDULE_MISMATCH_CODES = ['due_differs', 'no_annuity_due_then', 'number_out_of_range'] as const;
export const INSTRUCTION_STATUS_VALUES = ['unprocessed', 'processed', 'validated'] as const;
/** A ledger year's states (decision 191): from the agent's decision to the office's register. */
export const LEDGER_STATES = ['due', 'instructed', 'ordered', 'paid', 'confirmed', 'abandoned', 'lapsed'] as const;
/** Who moved a ledger year: an instruction (screen, bulk, sync, import…), validation, a receipt, staff by hand, the register. */
export const LEDGER_SOURCES = ['screen', 'bulk', 'sync', 'import', 'submission', 'edit', 'validation', 'receipt', 'staff', 'register'] as const;
export const INSTRUCTION_CHANGE_SOURCES = ['screen', 'bulk', 'sync', 'reset', 'validation', 'import', 'submission', 'edit'] as const;

/** What an agent's list sorts (decision 174) or filters by (office, instruction, schedule), carried by its scope's indexes (decision 189). */
const scopeListColumns = (t: Record<'pays' | 'referenceClient' | 'numeroDepot' | 'numeroPublication' | 'origine' | 'quantieme' | 'cost' | 'instructionId' | 'scheduleCode', AnyPgColumn>) => [
  t.pays,
  t.referenceClient,
  t.numeroDepot,
  t.numeroPublication,
  t.origine,
  t.quantieme,
  t.cost,
  t.instructionId,
  t.scheduleCode,
];

/**
 * The EP publication's seven digits a record's publication number names (`EP1000000`, `EP 1 000 000 B1`), else null;
 * and the EP application's eight (`EP99203729.4`, `EP 99 203 729`). A national record naming them is the EP patent
 * validated in that state (decision 214): the register sync writes the national office's events to it, and the
 * annuity-file check links a file's rows to it. Indexed (partial, national records only) under these exact texts.
 */
export const EP_PUBLICATION_DIGITS_SQL = sql.raw(`substring(upper(regexp_replace(coalesce(numero_publication, ''), '[^A-Za-z0-9]', '', 'g')) from '^EP([0-9]{7})(?:[A-Z][0-9]?)?$')`);
export const EP_APPLICATION_DIGITS_SQL = sql.raw(`substring(upper(regexp_replace(coalesce(numero_depot, ''), '[^A-Za-z0-9]', '', 'g')) from '^EP([0-9]{8})[0-9]?$')`);

/**
 * The group's patent portfolio as the back office keeps it (spec §3 "Patent (annuity/record view)",
 * `brevet_eptane` on the wire): one row per annuity to decide, keyed by the back office's `idagenda`,
 * owned by a cabinet and a client code (who may see it). `version` is bumped by every change of the
 * instruction: an update carries the version it read and a stale one is refused (optimistic concurrency).
 */
export const patentRecords = pgTable(
  'patent_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    idagenda: text('idagenda').notNull(),
    idbrevet: text('idbrevet'),
    cabinetId: uuid('cabinet_id').notNull().references(() => cabinets.id, { onDelete: 'restrict' }),
    clientCode: text('client_code').notNull(),
    referenceClient: text('reference_client'),
    /** The firm's own reference (`nosref`). */
    referenceCabinet: text('reference_cabinet'),
    numeroDepot: text('numero_depot'),
    numeroPublication: text('numero_publication'),
    /** Country code of the office; EP European, UP unitary. */
    pays: text('pays').notNull(),
    origine: text('origine'),
    dateDepot: date('date_depot', { mode: 'string' }),
    dateExpiration: date('date_expiration', { mode: 'string' }),
    /** The annuity's due date; the limit date for an instruction is 7 days before it. */
    dateEcheance: date('date_echeance', { mode: 'string' }),
    quantieme: integer('quantieme'),
    /** The annuity's cost in euros. */
    cost: numeric('cost', { precision: 12, scale: 2 }),
    titreAnglais: text('titre_anglais'),
    titreFrancais: text('titre_francais'),
    donneurOrdre: text('donneur_ordre'),
    donneurOrdreAn: text('donneur_ordre_an'),
    instructionId: integer('instruction_id').references(() => paymentInstructions.id, { onDelete: 'restrict' }),
    instructionStatus: text('instruction_status', { enum: INSTRUCTION_STATUS_VALUES }).notNull().default('unprocessed'),
    dateAcquit: date('date_acquit', { mode: 'string' }),
    datePaiementOffice: date('date_paiement_office', { mode: 'string' }),
    dateReponseCourrier: date('date_reponse_courrier', { mode: 'string' }),
    datePaiementClient: date('date_paiement_client', { mode: 'string' }),
    /** When the validated instruction went back to the back office; null until then. */
    exportedAt: timestamp('exported_at', { withTimezone: true }),
    /** The export batch that carried the validated instruction (set with `exported_at`). */
    exportBatchId: uuid('export_batch_id').references((): AnyPgColumn => patentExportBatches.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
    /**
     * How the record disagrees with the schedule `@portal/annuities` computes (`checkRecord`), written by
     * every write path in the statement of the write: null when it agrees or cannot be checked; else the
     * code and the engine's annuity (number and due date) the record should name (issue 25 §2).
     */
    scheduleCode: text('schedule_code', { enum: SCHEDULE_MISMATCH_CODES }),
    scheduleQuantieme: integer('schedule_quantieme'),
    scheduleEcheance: date('schedule_echeance', { mode: 'string' }),
    /** False for a row no checking path wrote yet (rows from before migration 0012): `recheckSchedules` takes them. */
    scheduleChecked: boolean('schedule_checked').notNull().default(false),
    /**
     * Spec §4 "Patent listing": an instruction id or any treatment date makes the patent one "with an
     * instruction" (the unvalidated tab); the others are the unprocessed tab. Kept by PostgreSQL so the
     * tab is an indexed column, never a five-way OR.
     */
    hasInstruction: boolean('has_instruction')
      .notNull()
      .generatedAlwaysAs(
        sql`instruction_id is not null or date_acquit is not null or date_paiement_office is not null or date_reponse_courrier is not null or date_paiement_client is not null`,
      ),
    /** Lower-cased references, numbers, country, titles and orderer, separated by U+001F (never in a search term): what the search reads. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower(coalesce(reference_client, '') || chr(31) || coalesce(numero_depot, '') || chr(31) || coalesce(numero_publication, '') || chr(31) || coalesce(reference_cabinet, '') || chr(31) || pays || chr(31) || coalesce(titre_francais, '') || chr(31) || coalesce(titre_anglais, '') || chr(31) || coalesce(donneur_ordre, ''))`,
      ),
    /**
     * The payment ledger's state of this record's own annuity year (`patent_ledger`, decision 191), kept by the
     * ledger's writer in the transaction of every change, so the agents' list reads it without a join. Null: no
     * ledger row yet (no year known, or nothing happened since migration 0023).
     */
    ledgerState: text('ledger_state', { enum: LEDGER_STATES }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('patent_records_idagenda_unique').on(t.idagenda),
    // A patent's annuity records by year (decision 191): the ledger writer keeps `ledger_state` on every record of a patent's year.
    index('patent_records_patent_year_idx').on(t.idbrevet, t.quantieme),
    // The national patents an EP patent was validated as, by the EP number they name (decision 214).
    index('patent_records_ep_publication_idx').on(EP_PUBLICATION_DIGITS_SQL).where(sql`pays not in ('EP', 'UP')`),
    index('patent_records_ep_application_idx').on(EP_APPLICATION_DIGITS_SQL).where(sql`pays not in ('EP', 'UP')`),
    // A tab of an agent's portfolio by due date: per cabinet, per client code, and everyone's for admins.
    // The cabinet's and the code's carry, after the id (never compared: the id is unique), every column an agent's
    // list sorts or filters by, so a scoped page finds its keys by an index-only scan of its scope and reads the
    // table for its own rows only (decision 189; Drizzle has no INCLUDE).
    index('patent_records_cabinet_tab_due_idx').on(t.cabinetId, t.hasInstruction, t.dateEcheance, t.id, ...scopeListColumns(t), t.clientCode),
    index('patent_records_code_tab_due_idx').on(t.clientCode, t.hasInstruction, t.dateEcheance, t.id, ...scopeListColumns(t), t.cabinetId),
    index('patent_records_tab_due_idx').on(t.hasInstruction, t.dateEcheance, t.id),
    // An admin's list of one country by due date (the office filter with the default sort, and its count).
    index('patent_records_tab_pays_due_idx').on(t.hasInstruction, t.pays, t.dateEcheance, t.id),
    // Patents to validate and the export of validated instructions, by due date.
    index('patent_records_status_due_idx').on(t.instructionStatus, t.dateEcheance),
    // An admin's tab is the whole portfolio: each sortable column gets its index, so a page reads 25 index
    // entries instead of sorting every row of the tab (issue 11 bench: 90-140 ms → under 1 ms).
    ...(
      [
        ['reference_client', t.referenceClient],
        ['numero_depot', t.numeroDepot],
        ['numero_publication', t.numeroPublication],
        ['pays', t.pays],
        ['origine', t.origine],
        ['quantieme', t.quantieme],
        ['cost', t.cost],
        ['instruction_id', t.instructionId],
      ] as const
    ).map(([name, column]) => index(`patent_records_tab_${name}_idx`).on(t.hasInstruction, column, t.id)),
    index('patent_records_tab_due_desc_idx').on(t.hasInstruction, t.dateEcheance.desc().nullsLast(), t.id.desc()),
    // Patents with missing information (admins' screen, default sort by client reference): the predicate is the query's own.
    index('patent_records_missing_info_idx')
      .on(t.referenceClient, t.id)
      .where(sql`coalesce(${t.numeroDepot}, '') = '' or coalesce(${t.numeroPublication}, '') = '' or coalesce(${t.referenceClient}, '') = ''`),
    // Its other sorts (decision 174: few rows each, written only for missing-information rows).
    ...(
      [
        ['numero_depot', t.numeroDepot],
        ['numero_publication', t.numeroPublication],
        ['pays', t.pays],
      ] as const
    ).map(([name, column]) =>
      index(`patent_records_missing_${name}_idx`)
        .on(column, t.id)
        .where(sql`coalesce(${t.numeroDepot}, '') = '' or coalesce(${t.numeroPublication}, '') = '' or coalesce(${t.referenceClient}, '') = ''`),
    ),
    // Patents to validate (status processed), default sort by application number.
    index('patent_records_to_validate_idx').on(t.numeroDepot, t.id).where(sql`${t.instructionStatus} = 'processed'`),
    // Its other sorts (decision 174: processed rows only, a small part of the portfolio).
    ...(
      [
        ['numero_publication', t.numeroPublication],
        ['reference_client', t.referenceClient],
        ['instruction_id', t.instructionId],
        ['donneur_ordre', t.donneurOrdre],
        ['donneur_ordre_an', t.donneurOrdreAn],
        ['date_echeance', t.dateEcheance],
        ['pays', t.pays],
      ] as const
    ).map(([name, column]) => index(`patent_records_to_validate_${name}_idx`).on(column, t.id).where(sql`${t.instructionStatus} = 'processed'`)),
    // The next export batch: validated and not exported yet.
    index('patent_records_to_export_idx').on(t.dateEcheance, t.id).where(sql`${t.instructionStatus} = 'validated' and ${t.exportedAt} is null`),
    // Records that disagree with the computed schedule (the list's filter), per tab by due date.
    index('patent_records_schedule_mismatch_idx').on(t.hasInstruction, t.dateEcheance, t.id).where(sql`${t.scheduleCode} is not null`),
    index('patent_records_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    check('patent_records_quantieme_check', sql`${t.quantieme} is null or ${t.quantieme} between 0 and 100`),
    check('patent_records_cost_check', sql`${t.cost} is null or ${t.cost} >= 0`),
    check('patent_records_schedule_code_check', sql`${t.scheduleCode} is null or ${t.scheduleCode} in ('due_differs', 'no_annuity_due_then', 'number_out_of_range')`),
    check('patent_records_status_check', sql`${t.instructionStatus} in ('unprocessed', 'processed', 'validated')`),
  ],
);

/**
 * How many patents each (cabinet, client code, tab) holds, and of them how many wait for validation
 * (status processed) and how many miss information: the totals of the unfiltered patent lists without
 * counting rows on every request (a scope is cabinets OR codes, so a pair is wholly in or out of it).
 * Kept by statement-level triggers on `patent_records` (migration 0016, decision 174) in the
 * transaction of the write, so it is never stale and no write path can forget it.
 */
export const patentTabCounts = pgTable(
  'patent_tab_counts',
  {
    cabinetId: uuid('cabinet_id').notNull().references(() => cabinets.id, { onDelete: 'cascade' }),
    clientCode: text('client_code').notNull(),
    hasInstruction: boolean('has_instruction').notNull(),
    patents: integer('patents').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    missing: integer('missing').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.cabinetId, t.clientCode, t.hasInstruction] })],
);

/**
 * Every change of a patent's instruction or status, written in the transaction of the change: who,
 * when, from which path (a screen's single choice, the bulk update, the back-office sync, a reset),
 * and the instruction and status before and after.
 */
export const patentInstructionEvents = pgTable(
  'patent_instruction_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patentId: uuid('patent_id').notNull().references(() => patentRecords.id, { onDelete: 'cascade' }),
    oldInstructionId: integer('old_instruction_id'),
    newInstructionId: integer('new_instruction_id'),
    oldStatus: text('old_status', { enum: INSTRUCTION_STATUS_VALUES }).notNull(),
    newStatus: text('new_status', { enum: INSTRUCTION_STATUS_VALUES }).notNull(),
    /** Null for the back-office sync, and once the user is deleted. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    source: text('source', { enum: INSTRUCTION_CHANGE_SOURCES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('patent_instruction_events_patent_idx').on(t.patentId, t.createdAt),
    check('patent_instruction_events_source_check', sql`${t.source} in ('screen', 'bulk', 'sync', 'reset', 'validation', 'import', 'submission', 'edit')`),
    check('patent_instruction_events_status_check', sql`${t.oldStatus} in ('unprocessed', 'processed', 'validated') and ${t.newStatus} in ('unprocessed', 'processed', 'validated')`),
  ],
);

export const PATENT_SUBMISSION_STATUSES = ['pending', 'accepted', 'rejected'] as const;

/**
 * A patent a user entered on the add-patent form (spec "Add patent form", POST /brevet_eptane/create):
 * it waits for an admin's review. Accepting it creates the patent record (`patent_id`) in the cabinet
 * and client code the admin confirms; rejecting it keeps the reason, which is mailed to the submitter.
 */
export const patentSubmissions = pgTable(
  'patent_submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    submittedBy: uuid('submitted_by').references(() => users.id, { onDelete: 'set null' }),
    numeroDepot: text('numero_depot'),
    numeroPublication: text('numero_publication'),
    dateDepot: date('date_depot', { mode: 'string' }),
    referenceClient: text('reference_client'),
    referenceCabinet: text('reference_cabinet'),
    dateEcheance: date('date_echeance', { mode: 'string' }),
    pays: text('pays'),
    origine: text('origine'),
    instructionId: integer('instruction_id').references(() => paymentInstructions.id, { onDelete: 'restrict' }),
    quantieme: integer('quantieme'),
    cost: numeric('cost', { precision: 12, scale: 2 }),
    status: text('status', { enum: PATENT_SUBMISSION_STATUSES }).notNull().default('pending'),
    reason: text('reason'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    patentId: uuid('patent_id').references(() => patentRecords.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('patent_submissions_status_created_idx').on(t.status, t.createdAt),
    index('patent_submissions_submitter_idx').on(t.submittedBy, t.createdAt),
    check('patent_submissions_status_check', sql`${t.status} in ('pending', 'accepted', 'rejected')`),
    check('patent_submissions_quantieme_check', sql`${t.quantieme} is null or ${t.quantieme} between 0 and 100`),
    check('patent_submissions_cost_check', sql`${t.cost} is null or ${t.cost} >= 0`),
  ],
);

/**
 * One upload of the back office's portfolio export (xlsx or CSV), upserted by `idagenda` by the
 * `patent-import` job. The worker owns the state (in_progress → Done | Error) and the counts, which
 * it updates as it goes (live progress); the same file twice gives `unchanged` for every row.
 */
export const patentImports = pgTable(
  'patent_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    originalName: text('original_name').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    rowsTotal: integer('rows_total'),
    rowsDone: integer('rows_done').notNull().default(0),
    inserted: integer('inserted').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    /** Rows stored but flagged: they disagree with the computed schedule. */
    flagged: integer('flagged').notNull().default(0),
    /** The first refused rows: `{ row, code, field? }`, at most a hundred. */
    rejections: jsonb('rejections').$type<{ row: number; code: string; field?: string }[]>().notNull().default(sql`'[]'::jsonb`),
    ...runColumns(),
  },
  (t) => [index('patent_imports_created_idx').on(t.createdAt, t.id), index('patent_imports_state_idx').on(t.state, t.updatedAt)],
);

/**
 * One export of validated instructions to the back office: a dated xlsx and CSV in the outbound
 * storage prefix. The job writes the files, then in one transaction inserts this row and stamps the
 * exported patents (`patent_records.export_batch_id`, `exported_at`), so nothing is exported twice.
 */
export const patentExportBatches = pgTable(
  'patent_export_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    xlsxKey: text('xlsx_key').notNull().unique(),
    csvKey: text('csv_key').notNull().unique(),
    patentCount: integer('patent_count').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('patent_export_batches_created_idx').on(t.createdAt, t.id)],
);

/** Euros per unit of a currency from a day on (the back office's fees in other currencies are converted with the rate of their day). */
export const currencyRates = pgTable(
  'currency_rates',
  {
    currency: text('currency').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    eurPerUnit: numeric('eur_per_unit', { precision: 18, scale: 8 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.validFrom] }), check('currency_rates_positive_check', sql`${t.eurPerUnit} > 0`)],
);

/**
 * ECB euro reference-rate files an admin imported (issue 30 §1, decision 199): what each file held.
 * The rates themselves are `ecb_rates`; the product never calls the ECB.
 */
export const ecbRateImports = pgTable('ecb_rate_imports', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The uploaded file's name, display only. */
  fileName: text('file_name').notNull(),
  format: text('format', { enum: ['csv', 'xml'] }).notNull(),
  firstDay: date('first_day', { mode: 'string' }).notNull(),
  lastDay: date('last_day', { mode: 'string' }).notNull(),
  days: integer('days').notNull(),
  rates: integer('rates').notNull(),
  /** Rates new or different from those already stored. */
  written: integer('written').notNull(),
  importedBy: uuid('imported_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/** One ECB reference rate per currency and publication day, exactly as published (units of the currency for 1 EUR). */
export const ecbRates = pgTable(
  'ecb_rates',
  {
    currency: text('currency').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    perEur: text('per_eur').notNull(),
    importId: uuid('import_id').references(() => ecbRateImports.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.currency, t.day] }),
    check('ecb_rates_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('ecb_rates_per_eur_check', sql`${t.perEur} ~ '^[0-9]{1,9}([.][0-9]{1,10})?$' and ${t.perEur}::numeric > 0`),
  ],
);

/** The agent's fee per office (issue 30 §1): admin-managed, dated; the row in force on the payment day applies. */
export const agentFees = pgTable(
  'agent_fees',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    office: text('office').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validUntil: date('valid_until', { mode: 'string' }),
    note: text('note'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('agent_fees_office_from_uq').on(t.office, t.validFrom),
    check('agent_fees_amount_check', sql`${t.amountMinor} >= 0`),
    check('agent_fees_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('agent_fees_validity_check', sql`${t.validUntil} is null or ${t.validUntil} >= ${t.validFrom}`),
  ],
);

/** A cabinet's service fee and the margin it adds, if any (basis points of the parts before it), dated. */
export const cabinetServiceFees = pgTable(
  'cabinet_service_fees',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cabinetId: uuid('cabinet_id')
      .notNull()
      .references(() => cabinets.id, { onDelete: 'cascade' }),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    marginBp: integer('margin_bp'),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validUntil: date('valid_until', { mode: 'string' }),
    note: text('note'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('cabinet_service_fees_cabinet_from_uq').on(t.cabinetId, t.validFrom),
    check('cabinet_service_fees_amount_check', sql`${t.amountMinor} >= 0`),
    check('cabinet_service_fees_margin_check', sql`${t.marginBp} is null or (${t.marginBp} >= 0 and ${t.marginBp} <= 10000)`),
    check('cabinet_service_fees_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('cabinet_service_fees_validity_check', sql`${t.validUntil} is null or ${t.validUntil} >= ${t.validFrom}`),
  ],
);

export const PATENT_REMINDER_STEPS = ['first_call', 'reminder', 'last_call'] as const;

/**
 * The reminders sent: one row per (agent, patent, step, due date), written in the transaction that
 * queues the grouped mail, so a reminder is never sent twice (the unique index) and a new due date
 * (the next annuity) starts its own steps.
 */
export const patentReminders = pgTable(
  'patent_reminders',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    patentId: uuid('patent_id').notNull().references(() => patentRecords.id, { onDelete: 'cascade' }),
    step: text('step', { enum: PATENT_REMINDER_STEPS }).notNull(),
    dateEcheance: date('date_echeance', { mode: 'string' }).notNull(),
    mailId: uuid('mail_id').references(() => mails.id, { onDelete: 'set null' }),
    sentAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.patentId, t.step, t.dateEcheance] }),
    check('patent_reminders_step_check', sql`${t.step} in ('first_call', 'reminder', 'last_call')`),
  ],
);

/**
 * One receipt upload (a PDF or a zip of PDFs): the API stores the file and writes this row, the
 * `receipts` job reads it and owns every transition. `refused` lists the entries that were not made
 * into receipts and why (a nested archive, not a PDF, too large…), at most a hundred.
 */
export const receiptUploads = pgTable(
  'receipt_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    originalName: text('original_name').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    entriesTotal: integer('entries_total'),
    entriesDone: integer('entries_done').notNull().default(0),
    receiptsCreated: integer('receipts_created').notNull().default(0),
    refusedCount: integer('refused_count').notNull().default(0),
    /** `{ entry, code }`: the entry's name as the archive gives it (display only, never a storage key). */
    refused: jsonb('refused').$type<{ entry: string; code: string }[]>().notNull().default(sql`'[]'::jsonb`),
    ...runColumns(),
  },
  (t) => [
    index('receipt_uploads_owner_created_idx').on(t.ownerId, t.createdAt, t.id),
    index('receipt_uploads_state_idx').on(t.state, t.updatedAt),
  ],
);

export const RECEIPT_MATCH_CONFIDENCES = ['sure', 'ambiguous', 'none'] as const;
export const RECEIPT_SOURCES = ['manifest', 'pdf_text', 'none'] as const;

/**
 * One payment receipt (récépissé): one PDF, its references and the patent record it belongs to. The
 * cabinet and client code decide who may see it: the matched patent record's, else the uploader's
 * cabinet. `(upload_id, entry_index)` is unique, so a second run of the same job finds it done.
 */
/** One patent a receipt names, as the matcher read it (decision 198): a snapshot of the record's references beside the year, amount and evidence. */
export interface ReceiptMatchCandidate {
  record_id: string;
  idagenda: string | null;
  reference_client: string | null;
  numero_depot: string | null;
  numero_publication: string | null;
  pays: string;
  year: number | null;
  year_printed: boolean;
  amount: string | null;
  currency: string | null;
  evidence: string[];
  confidence: 'sure' | 'ambiguous';
}
export interface ReceiptMatchDetail {
  candidates: ReceiptMatchCandidate[];
}

export const receipts = pgTable(
  'receipts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uploadId: uuid('upload_id').notNull().references(() => receiptUploads.id, { onDelete: 'cascade' }),
    entryIndex: integer('entry_index').notNull(),
    /** The PDF's name in the upload, display only. */
    fileName: text('file_name').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    size: bigint('size', { mode: 'number' }).notNull(),
    referenceClient: text('reference_client'),
    referenceInpi: text('reference_inpi'),
    /** The payment provider's reference. */
    referenceProvider: text('reference_provider'),
    dateOrdrePaiement: date('date_ordre_paiement', { mode: 'string' }),
    source: text('source', { enum: RECEIPT_SOURCES }).notNull(),
    /** Some reference is missing: a person completes it. */
    needsCompletion: boolean('needs_completion').notNull().default(false),
    /** The PDF could not be read (corrupt, encrypted…): kept and listed, references left empty. */
    pdfError: text('pdf_error'),
    patentId: uuid('patent_id').references(() => patentRecords.id, { onDelete: 'set null' }),
    cabinetId: uuid('cabinet_id').references(() => cabinets.id, { onDelete: 'restrict' }),
    clientCode: text('client_code'),
    /** The matcher's verdict (decision 192): sure (linked), ambiguous or none (unlinked, for staff); null before migration 0023. */
    matchConfidence: text('match_confidence', { enum: RECEIPT_MATCH_CONFIDENCES }),
    /** What the matcher read (decision 198): each patent the receipt names, with the year, amount, currency and evidence; null before it. */
    matchDetail: jsonb('match_detail').$type<ReceiptMatchDetail>(),
    /** Who linked it by hand (staff), when it was. */
    linkedBy: uuid('linked_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    // The unlinked receipts staff go through, newest first.
    index('receipts_unlinked_idx').on(t.createdAt, t.id).where(sql`${t.patentId} is null`),
    uniqueIndex('receipts_upload_entry_unique').on(t.uploadId, t.entryIndex),
    index('receipts_created_idx').on(t.createdAt, t.id),
    index('receipts_cabinet_created_idx').on(t.cabinetId, t.createdAt, t.id),
    index('receipts_code_created_idx').on(t.clientCode, t.createdAt, t.id),
    index('receipts_patent_idx').on(t.patentId),
    // Each sort of the receipts list, both directions (decision 183): the column, then the date and id as the list orders ties.
    index('receipts_reference_client_idx').on(t.referenceClient, t.createdAt, t.id),
    index('receipts_reference_inpi_idx').on(t.referenceInpi, t.createdAt, t.id),
    index('receipts_reference_provider_idx').on(t.referenceProvider, t.createdAt, t.id),
    index('receipts_payment_order_date_idx').on(t.dateOrdrePaiement, t.createdAt, t.id),
    index('receipts_file_name_idx').on(t.fileName, t.createdAt, t.id),
    // The receipts to complete (a few): their count and their newest-first page read only them.
    index('receipts_to_complete_idx').on(t.createdAt, t.id).where(sql`${t.needsCompletion}`),
    check('receipts_source_check', sql`${t.source} in ('manifest', 'pdf_text', 'none')`),
  ],
);

/**
 * A user's TOTP second factor (RFC 6238). The secret is encrypted at rest (AES-256-GCM, key from the
 * configuration); `confirmed_at` is null while the enrolment waits for its first valid code. The last
 * accepted time step is kept so a code is never accepted twice.
 */
export const userMfa = pgTable('user_mfa', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes: only a hash of each is kept. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('mfa_recovery_codes_user_idx').on(t.userId)],
);

/**
 * A login whose password was right and that waits for its second factor (or for the enrolment an
 * admin must complete): the cookie holds a random token, the row its SHA-256; short-lived, and the
 * wrong codes are counted here as well as in the login lockout.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify', 'enrol'] }).notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('mfa_challenges_user_idx').on(t.userId)],
);

export const SECURITY_EVENT_KINDS = ['mfa_enrolled', 'mfa_reset', 'mfa_recovery_code_used', 'mfa_disabled'] as const;

/** Security-relevant actions on accounts (who did what to whom, when), for the admins' audit. */
export const securityEvents = pgTable(
  'security_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: SECURITY_EVENT_KINDS }).notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    targetId: uuid('target_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('security_events_created_idx').on(t.createdAt, t.id), index('security_events_target_idx').on(t.targetId, t.createdAt)],
);

/**
 * The payment ledger (decision 191): one row per patent and annuity year. The patent is the back office's
 * `idbrevet` (every annuity record of one patent shares it), else `record:<patent_records.id>` for a record
 * without one. Each state has its source and time; `paid` carries the date, amount, currency and the receipt.
 * Written only by the ledger writer (`@portal/jobs` ledger), in the transaction of the change that causes it,
 * with the year's row locked (FOR UPDATE), and one `patent_ledger_events` row per change.
 */
export const patentLedger = pgTable(
  'patent_ledger',
  {
    patentKey: text('patent_key').notNull(),
    annuityYear: integer('annuity_year').notNull(),
    /** The annuity record of this year, when the portfolio has one. */
    recordId: uuid('record_id').references(() => patentRecords.id, { onDelete: 'set null' }),
    state: text('state', { enum: LEDGER_STATES }).notNull().default('due'),
    source: text('source', { enum: LEDGER_SOURCES }),
    stateAt: timestamp('state_at', { withTimezone: true }).notNull().defaultNow(),
    amount: numeric('amount', { precision: 12, scale: 2 }),
    currency: text('currency'),
    paidOn: date('paid_on', { mode: 'string' }),
    receiptId: uuid('receipt_id').references(() => receipts.id, { onDelete: 'set null' }),
  },
  (t) => [
    primaryKey({ columns: [t.patentKey, t.annuityYear] }),
    index('patent_ledger_record_idx').on(t.recordId),
    index('patent_ledger_receipt_idx').on(t.receiptId),
    // The forecast's drop-outs (decision 201): abandoned or lapsed years end a patent's budget, paid years leave it.
    index('patent_ledger_forecast_idx')
      .on(t.patentKey, t.annuityYear, t.state)
      .where(sql`${t.state} in ('abandoned', 'lapsed', 'paid', 'confirmed')`),
    check('patent_ledger_state_check', sql`${t.state} in ('due', 'instructed', 'ordered', 'paid', 'confirmed', 'abandoned', 'lapsed')`),
    check('patent_ledger_year_check', sql`${t.annuityYear} between 0 and 100`),
  ],
);

/** The ledger's audit trail: every change of a year's state (old → new), its source, user, receipt and time. */
export const patentLedgerEvents = pgTable(
  'patent_ledger_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patentKey: text('patent_key').notNull(),
    annuityYear: integer('annuity_year').notNull(),
    oldState: text('old_state', { enum: LEDGER_STATES }),
    newState: text('new_state', { enum: LEDGER_STATES }).notNull(),
    source: text('source', { enum: LEDGER_SOURCES }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    receiptId: uuid('receipt_id').references(() => receipts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('patent_ledger_events_year_idx').on(t.patentKey, t.annuityYear, t.createdAt)],
);

/** How a patent reached its office, as the forecast filters it: the engine's origins (national, EP validation, unitary, pending EP application). */
export const FORECAST_ORIGINS = ['national', 'ep_validated', 'unitary', 'ep_application'] as const;

/**
 * A forecast figure's cost parts in euro cents at the ECB rate (decision 217): the official fee, the agent's fee, the
 * service fee and the margin, and `unconverted` (parts without a rate). The same columns on the rows, the live rows and
 * both sums; fresh builders per table.
 */
const eurPartColumns = () => ({
  officialEur: bigint('official_eur', { mode: 'number' }).notNull().default(0),
  agentFeeEur: bigint('agent_fee_eur', { mode: 'number' }).notNull().default(0),
  serviceFeeEur: bigint('service_fee_eur', { mode: 'number' }).notNull().default(0),
  marginEur: bigint('margin_eur', { mode: 'number' }).notNull().default(0),
  unconverted: integer('unconverted').notNull().default(0),
});

/**
 * The forecast's precomputed schedule (issue 30 §2, decision 201): per patent (`patent_key`, as the ledger keys it), every
 * annuity of the engine's schedule from the record's annuity number on, each priced on its due date (the payment day of an
 * annuity paid on time), with the patent's owner, office and origin copied so the forecast is one indexed aggregate and never
 * runs the engine per request. Rows are rebuilt by `refreshForecast` (`@portal/jobs`) for the patents that
 * `patent_forecast_dirty` names; a trigger on `patent_records` names them in the transaction of every change.
 * Today-independent: which rows count (due after today, not lapsed, not abandoned) is decided when read.
 */
export const patentForecastRows = pgTable(
  'patent_forecast_rows',
  {
    patentKey: text('patent_key').notNull(),
    annuityYear: integer('annuity_year').notNull(),
    /**
     * The record the schedule was computed from (the patent's record with the highest annuity number). No foreign key: a
     * deleted record's rows must leave through `refreshForecast`, which takes them out of the month sums too.
     */
    recordId: uuid('record_id').notNull(),
    cabinetId: uuid('cabinet_id').notNull(),
    clientCode: text('client_code').notNull(),
    /** The office whose fees apply (UP for a unitary patent). */
    office: text('office').notNull(),
    origin: text('origin', { enum: FORECAST_ORIGINS }).notNull(),
    currency: text('currency').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    /** The annuity's last day without surcharge and last possible day (*lost after*). */
    noSurchargeEnd: date('no_surcharge_end', { mode: 'string' }).notNull(),
    graceEnd: date('grace_end', { mode: 'string' }).notNull(),
    /** The official fee in force on the due date, in minor units; null when no table gives one. */
    officialMinor: integer('official_minor'),
    /**
     * The annuity's cost as the patent's detail shows it on the due date (`costBreakdown`, decision 199), in euro cents at
     * the ECB rate: the official fee, the agent's fee, the service fee and the margin (decision 217). `unconverted`: a
     * part had no rate (the euros count 0 and the annuity is counted here). Kept with the rows: a change of the admin
     * tables or an ECB import names the patents again.
     */
    ...eurPartColumns(),
    /**
     * True when the record names its annuity (`quantieme`): the rows start there and one due on or before today is unpaid
     * (read through the engine at request time). False: the engine counts annuities due on or before today as paid.
     */
    unpaidKnown: boolean('unpaid_known').notNull(),
    /** The due date of the patent's first unpaid annuity (the same on each of its rows), stored or not. */
    firstDue: date('first_due', { mode: 'string' }).notNull(),
    /**
     * Rows are kept from the refresh day through this day (the end of the sixth calendar year after it): a forecast whose
     * window ends later first rebuilds the patents stored through an earlier day.
     */
    storedThrough: date('stored_through', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.patentKey, t.annuityYear] }),
    index('patent_forecast_rows_due_idx').on(t.dueDate, t.office, t.currency, t.origin, t.cabinetId, t.clientCode, t.annuityYear, t.officialMinor, t.unpaidKnown, t.firstDue, t.patentKey),
    index('patent_forecast_rows_overdue_idx').on(t.firstDue).where(sql`${t.unpaidKnown}`),
    index('patent_forecast_rows_record_idx').on(t.recordId),
    index('patent_forecast_rows_through_idx').on(t.storedThrough),
  ],
);

/**
 * `patent_forecast_rows` summed per calendar month of the due date, office, currency, origin and annuity number (decision
 * 201), kept by `refreshForecast` in the transaction that rewrites the rows: the whole portfolio's forecast (filtered by
 * office, origin or the what-if) reads a few thousand sums instead of every row. `month` is year × 12 + month − 1.
 */
export const patentForecastSums = pgTable(
  'patent_forecast_sums',
  {
    month: integer('month').notNull(),
    office: text('office').notNull(),
    currency: text('currency').notNull(),
    origin: text('origin', { enum: FORECAST_ORIGINS }).notNull(),
    annuityYear: integer('annuity_year').notNull(),
    officialMinor: bigint('official_minor', { mode: 'number' }).notNull().default(0),
    annuities: integer('annuities').notNull().default(0),
    unpriced: integer('unpriced').notNull().default(0),
    ...eurPartColumns(),
  },
  (t) => [primaryKey({ columns: [t.month, t.office, t.currency, t.origin, t.annuityYear] })],
);

/**
 * The forecast's *special* patents as of one day (`patent_forecast_live_day`), stored (decision 216): those the engine reads
 * as of that day rather than from their rows (a record naming an annuity already due, an annuity due and still within its
 * last day, a ledger year abandoned/lapsed/paid among the kept years, a "do not pay" instruction). Per patent, the
 * engine's parts as of the day (+1 annuity each: the fee on the payment day, the surcharge in grace, drop-outs applied)
 * and its stored rows due after the day taken back out (−1 each): added to the rows (or the sums), they give the engine's
 * figures. Rebuilt by `refreshForecast` in the background lane: whole once a day, per patent with its rows.
 */
export const patentForecastLive = pgTable(
  'patent_forecast_live',
  {
    patentKey: text('patent_key').notNull(),
    month: integer('month').notNull(),
    office: text('office').notNull(),
    currency: text('currency').notNull(),
    origin: text('origin', { enum: FORECAST_ORIGINS }).notNull(),
    annuityYear: integer('annuity_year').notNull(),
    cabinetId: uuid('cabinet_id').notNull(),
    clientCode: text('client_code').notNull(),
    officialMinor: bigint('official_minor', { mode: 'number' }).notNull(),
    surchargeMinor: bigint('surcharge_minor', { mode: 'number' }).notNull(),
    annuities: integer('annuities').notNull(),
    unpriced: integer('unpriced').notNull(),
    ...eurPartColumns(),
    surchargeEur: bigint('surcharge_eur', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('patent_forecast_live_key_idx').on(t.patentKey), index('patent_forecast_live_scope_idx').on(t.cabinetId, t.clientCode)],
);

/** `patent_forecast_live` summed as `patent_forecast_sums` is (the whole portfolio's correction), kept with it. */
export const patentForecastLiveSums = pgTable(
  'patent_forecast_live_sums',
  {
    month: integer('month').notNull(),
    office: text('office').notNull(),
    currency: text('currency').notNull(),
    origin: text('origin', { enum: FORECAST_ORIGINS }).notNull(),
    annuityYear: integer('annuity_year').notNull(),
    officialMinor: bigint('official_minor', { mode: 'number' }).notNull().default(0),
    surchargeMinor: bigint('surcharge_minor', { mode: 'number' }).notNull().default(0),
    annuities: integer('annuities').notNull().default(0),
    unpriced: integer('unpriced').notNull().default(0),
    ...eurPartColumns(),
    surchargeEur: bigint('surcharge_eur', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.office, t.currency, t.origin, t.annuityYear] })],
);

/** The day `patent_forecast_live` was built for (one row at most); none: never built. */
export const patentForecastLiveDay = pgTable(
  'patent_forecast_live_day',
  {
    id: integer('id').primaryKey().default(1),
    day: date('day', { mode: 'string' }).notNull(),
  },
  (t) => [check('patent_forecast_live_day_one', sql`${t.id} = 1`)],
);

/** Patents whose forecast rows must be rebuilt (written by the trigger on `patent_records`, emptied by `refreshForecast`). */
export const patentForecastDirty = pgTable('patent_forecast_dirty', {
  patentKey: text('patent_key').primaryKey(),
});

/** A 64-bit transaction id (`pg_current_xact_id()`), read and written as text. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/**
 * The transactions that changed what a reader's ledger colours of a file read (decision 233): the ledger's years,
 * the reader's scope (its cabinets, its client codes) and a record's cabinet or client code. Statement triggers
 * (migration 0037) add the writing transaction; a list's kept colours are still right while no transaction here is
 * one their snapshot did not see. Rows older than a day are deleted by the same triggers.
 */
export const ledgerColourWrites = pgTable(
  'ledger_colour_writes',
  {
    xid: xid8('xid').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ledger_colour_writes_at_idx').on(t.at)],
);

/**
 * The register sync (issue 29 §3, decision 196): one run reads the EP register for every EP/UP patent of the
 * portfolio, in patent-key order. `cursor` is the last patent committed, so a run taken over after a kill resumes
 * at the next one. A throttled answer pauses the run (`paused_until`, the lease held until then, the job ended);
 * `disabled` says why a run did nothing (no OPS credentials).
 */
export const REGISTER_SYNC_TRIGGERS = ['schedule', 'admin'] as const;
export const registerSyncRuns = pgTable(
  'register_sync_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    trigger: text('trigger', { enum: REGISTER_SYNC_TRIGGERS }).notNull(),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** The UTC day the run syncs for (a patent is read at most once a day). */
    day: date('day', { mode: 'string' }).notNull(),
    total: integer('total'),
    done: integer('done').notNull().default(0),
    /** Patents the register answered about, did not know, or could not be read (skipped for the day). */
    found: integer('found').notNull().default(0),
    notFound: integer('not_found').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** Discrepancies the run found open. */
    discrepancies: integer('discrepancies').notNull().default(0),
    cursor: text('cursor'),
    pausedUntil: timestamp('paused_until', { withTimezone: true }),
    pauseReason: text('pause_reason'),
    disabled: text('disabled'),
    ...runColumns(),
  },
  (t) => [index('register_sync_runs_state_idx').on(t.state, t.updatedAt), index('register_sync_runs_created_idx').on(t.createdAt, t.id)],
);

/** At most one register read per patent and day: the key is taken in the transaction that stores what was read. */
export const registerSyncs = pgTable(
  'register_syncs',
  {
    patentKey: text('patent_key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    runId: uuid('run_id').references(() => registerSyncRuns.id, { onDelete: 'set null' }),
    outcome: text('outcome', { enum: ['found', 'not_found', 'no_number', 'failed'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.patentKey, t.day] })],
);

export const REGISTER_OBSERVATION_KINDS = ['paid', 'lapsed', 'unitary'] as const;
/**
 * What the register says about a patent, as last read: a fee paid (year, date; `EP` for a renewal fee paid to the
 * EPO, else the national office of a PGFP/PLFP event), a lapse (in a state, or `EP` for the whole file), the unitary
 * effect (year 0). One row per (patent, kind, country, year), rewritten by each read.
 */
export const registerObservations = pgTable(
  'register_observations',
  {
    patentKey: text('patent_key').notNull(),
    kind: text('kind', { enum: REGISTER_OBSERVATION_KINDS }).notNull(),
    country: text('country').notNull(),
    annuityYear: integer('annuity_year').notNull().default(0),
    on: date('on_date', { mode: 'string' }),
    code: text('code').notNull(),
    detail: text('detail'),
    url: text('url').notNull(),
    observedAt: timestamp('observed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.patentKey, t.kind, t.country, t.annuityYear] })],
);

export const REGISTER_DISCREPANCY_KINDS = ['register_paid', 'register_lapsed', 'instruction_on_lapsed'] as const;
export const REGISTER_DISCREPANCY_STATUSES = ['open', 'accepted', 'kept'] as const;
/**
 * Where the portal and the register disagree (issue 29 §3): one row per patent, year and kind. `fingerprint` is what
 * the register said; a row kept with a note stays hidden until the register says something else.
 */
export const registerDiscrepancies = pgTable(
  'register_discrepancies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patentKey: text('patent_key').notNull(),
    annuityYear: integer('annuity_year').notNull(),
    kind: text('kind', { enum: REGISTER_DISCREPANCY_KINDS }).notNull(),
    recordId: uuid('record_id').references(() => patentRecords.id, { onDelete: 'cascade' }),
    portalState: text('portal_state', { enum: LEDGER_STATES }).notNull(),
    registerOn: date('register_on', { mode: 'string' }),
    registerCode: text('register_code').notNull(),
    registerUrl: text('register_url').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: text('status', { enum: REGISTER_DISCREPANCY_STATUSES }).notNull().default('open'),
    note: text('note'),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('register_discrepancies_key').on(t.patentKey, t.annuityYear, t.kind), index('register_discrepancies_status_idx').on(t.status, t.createdAt, t.id)],
);

/** The steps of a renewal call (issue 30 §3, decision 202), in the order they are sent. */
export const RENEWAL_CALL_STEPS = ['first_call', 'reminder', 'last_call'] as const;
/** Why an item of a call was closed: the agent instructed in the portal, the payment was recorded, or the right lapsed. */
export const RENEWAL_CALL_CLOSINGS = ['instructed', 'paid', 'lapsed'] as const;

/**
 * A cabinet's renewal-call settings (issue 30 §3): the window of due dates a call gathers (days ahead of
 * the day), the margin before the due date that makes "instruct before", and how many days before
 * "instruct before" the reminder goes. A cabinet without a row has the defaults.
 */
export const renewalCallSettings = pgTable(
  'renewal_call_settings',
  {
    cabinetId: uuid('cabinet_id')
      .primaryKey()
      .references(() => cabinets.id, { onDelete: 'cascade' }),
    windowDays: integer('window_days').notNull().default(90),
    marginDays: integer('margin_days').notNull().default(30),
    reminderDays: integer('reminder_days').notNull().default(14),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The staff member who saved them last (the audit of a change: who and when; the log line has the values). */
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('renewal_call_settings_window_check', sql`${t.windowDays} between 7 and 366`),
    check('renewal_call_settings_margin_check', sql`${t.marginDays} between 0 and 180`),
    check('renewal_call_settings_reminder_check', sql`${t.reminderDays} between 0 and 180`),
  ],
);

/**
 * A renewal call: the annuities of one client code of one cabinet falling due in the cabinet's window,
 * gathered by the `renewal-calls` job (decision 202). At most one open call per cabinet and client code;
 * `held` stops its steps until staff release it; `closed_on` once every item is closed.
 */
export const renewalCalls = pgTable(
  'renewal_calls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cabinetId: uuid('cabinet_id')
      .notNull()
      .references(() => cabinets.id, { onDelete: 'cascade' }),
    clientCode: text('client_code').notNull(),
    openedOn: date('opened_on', { mode: 'string' }).notNull(),
    held: boolean('held').notNull().default(false),
    closedOn: date('closed_on', { mode: 'string' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('renewal_calls_open_unique').on(t.cabinetId, t.clientCode).where(sql`${t.closedOn} is null`),
    index('renewal_calls_client_idx').on(t.clientCode, t.openedOn),
  ],
);

/**
 * An annuity of a call: one annuity record belongs to one call at most (the primary key), with its due date
 * and "instruct before" (due date − the cabinet's margin) as the server computed them when it joined.
 * Closed item by item: instructed, paid, lapsed. The agents' list reads it by the record's key.
 */
export const renewalCallItems = pgTable(
  'renewal_call_items',
  {
    recordId: uuid('record_id')
      .primaryKey()
      .references(() => patentRecords.id, { onDelete: 'cascade' }),
    callId: uuid('call_id')
      .notNull()
      .references(() => renewalCalls.id, { onDelete: 'cascade' }),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    instructBefore: date('instruct_before', { mode: 'string' }).notNull(),
    closedReason: text('closed_reason', { enum: RENEWAL_CALL_CLOSINGS }),
    closedOn: date('closed_on', { mode: 'string' }),
  },
  (t) => [
    index('renewal_call_items_call_idx').on(t.callId, t.dueDate),
    check('renewal_call_items_closed_check', sql`${t.closedReason} is null or ${t.closedReason} in ('instructed', 'paid', 'lapsed')`),
  ],
);

/**
 * The steps of a call sent: one row per (call, step), the unique key that keeps a step from being sent twice,
 * written in the transaction that records its mails. The call's audit trail: when, by the schedule or by whom
 * ("send now"), how many open items, which mails.
 */
export const renewalCallSteps = pgTable(
  'renewal_call_steps',
  {
    callId: uuid('call_id')
      .notNull()
      .references(() => renewalCalls.id, { onDelete: 'cascade' }),
    step: text('step', { enum: RENEWAL_CALL_STEPS }).notNull(),
    sentOn: date('sent_on', { mode: 'string' }).notNull(),
    items: integer('items').notNull(),
    mails: integer('mails').notNull(),
    /** Staff who pressed "send now"; null for the daily schedule. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.callId, t.step] }), check('renewal_call_steps_step_check', sql`${t.step} in ('first_call', 'reminder', 'last_call')`)],
);
