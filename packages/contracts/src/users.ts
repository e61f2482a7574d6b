import { z } from 'zod';
import { LANGUAGES, DEFAULT_LANGUAGE } from './roles.ts';
import { emailSchema, passwordSchema } from './auth.ts';

const idSchema = z.string().trim().min(1).max(64);
const shortText = (max: number) => z.string().trim().min(1).max(max);

/** POST /api/admin/user: field names as in the spec; roles are role ids. */
export const createUserBody = z.strictObject({
  company_agent: shortText(200),
  email: emailSchema,
  password: passwordSchema,
  roles: z.array(idSchema, { error: 'role_required' }).min(1, { error: 'role_required' }).max(5),
  id_client: z.array(shortText(64)).max(50).default([]),
  cabinets: z.array(idSchema).max(50).default([]),
  code: z.array(shortText(64)).max(50).default([]),
  langue: z.enum(LANGUAGES).default(DEFAULT_LANGUAGE),
});
export type CreateUserBody = z.input<typeof createUserBody>;

export const userIdParam = z.strictObject({ id: idSchema });

/** POST /api/adresse_agent_ledes/create */
export const agentAddressBody = z.strictObject({
  id_client: shortText(64),
  destinataire_libelle: shortText(200),
  ligne01_libelle: shortText(200),
  ligne02_libelle: z.string().trim().max(200).optional(),
  ville_libelle: shortText(100),
  pays_code: z.string().trim().regex(/^[A-Za-z]{2}$/).transform((s) => s.toUpperCase()),
  code_postal: shortText(20),
  devise: z.string().trim().regex(/^[A-Za-z]{3}$/).transform((s) => s.toUpperCase()),
});
export type AgentAddressBody = z.input<typeof agentAddressBody>;
export type AgentAddress = z.output<typeof agentAddressBody> & { _id: string };

/** POST /api/user/id_client/name */
export const idClientNameBody = z.strictObject({ id_client: shortText(64) });
export interface ClientChoice {
  id_client: string;
  destinataire_libelle: string;
}
