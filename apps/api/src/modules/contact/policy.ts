import type { PolicyTable } from '../../http/access.ts';

export const contactPolicy = {
  'POST /contact': 'public',
} satisfies PolicyTable;
