import type { PolicyTable } from '../../http/access.ts';

/** The spec's annuities menu: user_annuites or admin. Object-level rules (own files, any for an admin) are in the service. */
const ANNUITY_USERS = ['user_annuites', 'admin'] as const;

export const annuitiesPolicy = {
  'POST /brevets/annuite': ANNUITY_USERS,
  'GET /annuite/files': ANNUITY_USERS,
  'GET /annuite/files/download': ANNUITY_USERS,
  'GET /brevets/file/:id': ANNUITY_USERS,
  'PUT /brevets/annuite/:id': ANNUITY_USERS,
  'PUT /brevets/annuites/many': ANNUITY_USERS,
  'PUT /brevets/file/:id/comment': ANNUITY_USERS,
  'GET /annuite/research': ANNUITY_USERS,
} satisfies PolicyTable;
