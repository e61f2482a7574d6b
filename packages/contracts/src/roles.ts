/** Role slugs as the spec names them; the database stores roles by id, the wire and policies speak slugs. */
export const ROLE_SLUGS = [
  'admin',
  'user_agent_ledes',
  'user_annuites',
  'user_agent_annuites',
  'admin_test',
] as const;
export type RoleSlug = (typeof ROLE_SLUGS)[number];

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
