import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
