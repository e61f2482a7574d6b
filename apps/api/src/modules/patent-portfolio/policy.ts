import type { PolicyTable } from '../../http/access.ts';

/**
 * The portfolio's back-office loop (issue 11): imports, exports and reminders are the admins'
 * (spec §6: the back office's data is theirs to load). The sync is called by the back office's
 * integration, never by a session: it is 'public' here and authenticated in its handler by its own
 * key (`PATENT_SYNC_API_KEY`, Bearer, decision 107); without that key configured it is a 404.
 */
export const patentPortfolioPolicy = {
  'POST /patent_imports': ['admin'],
  'GET /patent_imports': ['admin'],
  'GET /patent_imports/:id': ['admin'],
  'PUT /brevet_eptane/sync': 'public',
  'POST /patent_exports': ['admin'],
  'GET /patent_exports': ['admin'],
  'GET /patent_exports/:id/download': ['admin'],
  'POST /patent_reminders': ['admin'],
} satisfies PolicyTable;
