import { z } from 'zod';
import { LANGUAGES, DEFAULT_LANGUAGE } from './roles.ts';
import { cabinetSchema, emailSchema, passwordSchema, publicUserSchema } from './auth.ts';
import { text } from './text.ts';

const shortText = (max: number) => text().trim().min(1).max(max);

/** POST /api/admin/user: field names as in the spec; roles and cabinets are ids. */
export const createUserBody = z.strictObject({
  company_agent: shortText(200),
  email: emailSchema,
  password: passwordSchema,
  roles: z.array(z.uuid({ error: 'role_required' }), { error: 'role_required' }).min(1, { error: 'role_required' }).max(5),
  id_client: z.array(shortText(64)).max(50).default([]),
  cabinets: z.array(z.uuid({ error: 'cabinet_required' })).max(50).default([]),
  code: z.array(shortText(64)).max(50).default([]),
  langue: z.enum(LANGUAGES).default(DEFAULT_LANGUAGE),
});
export type CreateUserBody = z.input<typeof createUserBody>;
export type NewUser = z.output<typeof createUserBody>;

/** POST /api/adresse_agent_ledes/create */
export const agentAddressBody = z.strictObject({
  id_client: shortText(64),
  destinataire_libelle: shortText(200),
  ligne01_libelle: shortText(200),
  ligne02_libelle: text().trim().max(200).optional(),
  ville_libelle: shortText(100),
  pays_code: text().trim().regex(/^[A-Za-z]{2}$/).transform((s) => s.toUpperCase()),
  code_postal: shortText(20),
  devise: text().trim().regex(/^[A-Za-z]{3}$/).transform((s) => s.toUpperCase()),
});
export type AgentAddressBody = z.input<typeof agentAddressBody>;
export type NewAgentAddress = z.output<typeof agentAddressBody>;

export const agentAddressSchema = z.strictObject({
  _id: z.uuid(),
  id_client: z.string(),
  destinataire_libelle: z.string(),
  ligne01_libelle: z.string(),
  ligne02_libelle: z.string().optional(),
  ville_libelle: z.string(),
  pays_code: z.string(),
  code_postal: z.string(),
  devise: z.string(),
});
export type AgentAddress = z.infer<typeof agentAddressSchema>;

/** POST /api/user/id_client/name */
export const idClientNameBody = z.strictObject({ id_client: shortText(64) });
export const idClientNameResponse = z.strictObject({ success: z.literal(true), name: z.string() });
export type IdClientNameResponse = z.infer<typeof idClientNameResponse>;

export const usersResponse = z.strictObject({ success: z.literal(true), users: z.array(publicUserSchema) });
export type UsersResponse = z.infer<typeof usersResponse>;
export const userResponse = z.strictObject({ success: z.literal(true), user: publicUserSchema });
export const userCreatedResponse = z.strictObject({ success: z.literal(true), message: z.string(), user: publicUserSchema });
export type UserCreatedResponse = z.infer<typeof userCreatedResponse>;

/** GET /api/user_ledes: the LEDES agents an admin submits files for. */
export const ledesAgentSchema = z.strictObject({ _id: z.uuid(), company_agent: z.string(), email: z.string(), id_client: z.array(z.string()) });
export type LedesAgent = z.infer<typeof ledesAgentSchema>;
export const ledesAgentsResponse = z.strictObject({ success: z.literal(true), users: z.array(ledesAgentSchema) });
export type LedesAgentsResponse = z.infer<typeof ledesAgentsResponse>;

export const cabinetsResponse = z.strictObject({ success: z.literal(true), cabinet: z.array(cabinetSchema) });
export type CabinetsResponse = z.infer<typeof cabinetsResponse>;
export const agentAddressCreatedResponse = z.strictObject({ success: z.literal(true), message: z.string(), adresse: agentAddressSchema });
export type AgentAddressCreatedResponse = z.infer<typeof agentAddressCreatedResponse>;

/**
 * The mails a user opts in to from their account (issue 31 §3): a LEDES file of theirs refused, delivered to step 2,
 * and (admins only: `digest_available`) the daily digest of every LEDES run.
 */
export const notificationSettingsSchema = z.strictObject({
  ledes_refused: z.boolean(),
  ledes_delivered: z.boolean(),
  ledes_digest: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
/** PUT /api/account/notifications: the settings to change (the others stay). */
export const notificationSettingsBody = notificationSettingsSchema.partial();
export const notificationSettingsResponse = z.strictObject({
  success: z.literal(true),
  settings: notificationSettingsSchema,
  digest_available: z.boolean(),
});
export type NotificationSettingsResponse = z.infer<typeof notificationSettingsResponse>;
