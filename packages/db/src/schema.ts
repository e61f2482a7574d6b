import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

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
    langue: text('langue', { enum: ['en', 'fr'] }).notNull().default('en'),
    idClient: text('id_client').array().notNull().default(sql`'{}'::text[]`),
    code: text('code').array().notNull().default(sql`'{}'::text[]`),
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

/**
 * Outgoing mail: the row is written in the same transaction as the action that causes it, the queue
 * carries only its id, and `sent_at` makes the mail worker idempotent.
 */
export const mails = pgTable(
  'mails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipient: text('recipient').notNull(),
    template: text('template', { enum: ['reset_password', 'first_connection', 'contact'] }).notNull(),
    locale: text('locale', { enum: ['en', 'fr'] }).notNull(),
    params: jsonb('params').$type<Record<string, string>>().notNull(),
    replyTo: text('reply_to'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('mails_unsent_idx').on(t.createdAt).where(sql`${t.sentAt} is null`)],
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
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    office: text('office').notNull(),
    type: text('type', { enum: ['patent', 'trademark', 'annuites'] }).notNull(),
    idClient: text('id_client'),
    clientDestinataire: text('client_destinataire'),
    sendHistory: boolean('send_history').notNull().default(true),
    sendServer: boolean('send_server').notNull().default(true),
    state: text('state', { enum: ['in_progress', 'Done', 'Error'] }).notNull().default('in_progress'),
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
    errorCode: text('error_code'),
    attempts: integer('attempts').notNull().default(0),
    deliveredKey: text('delivered_key'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ledes_runs_owner_created_idx').on(t.ownerId, t.createdAt),
    index('ledes_runs_state_idx').on(t.state, t.createdAt),
    // A user's history: its count and its newest-first page read this narrow index, not the run rows.
    index('ledes_runs_history_idx').on(t.ownerId, t.createdAt, t.id).where(sql`${t.sendHistory}`),
  ],
);

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
  },
  (t) => [primaryKey({ columns: [t.runId, t.line, t.code, t.champ] })],
);

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
