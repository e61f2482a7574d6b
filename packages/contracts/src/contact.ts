import { z } from 'zod';
import { emailSchema } from './auth.ts';
import { text } from './text.ts';

/** The spec's issue → topic map for the contact form. */
export const CONTACT_TOPICS = {
  patent: ['patent_missing', 'patent_issue', 'receipt_demand'],
  ledes: ['ledes_verification', 'ledes_display'],
  trademark: ['trademark_missing', 'trademark_issue'],
  account: ['account_loggin', 'account_update', 'account_remove'],
  other: ['other_issue', 'other_download', 'other_display'],
} as const satisfies Record<string, readonly string[]>;
export type ContactIssue = keyof typeof CONTACT_TOPICS;
export const CONTACT_ISSUES = Object.keys(CONTACT_TOPICS) as [ContactIssue, ...ContactIssue[]];

/**
 * `issue` is a closed enum: a lookup with `in` or `[]` would accept `constructor`, `__proto__` or
 * `toString` (inherited from Object.prototype) and then crash on them.
 */
export const contactBody = z
  .strictObject({
    mail: emailSchema,
    issue: z.enum(CONTACT_ISSUES, { error: 'issue_empty' }),
    topic: text({ error: 'topic_empty' }).min(1, { error: 'topic_empty' }).max(50),
    details: text({ error: 'message_empty' }).trim().min(1, { error: 'message_empty' }).max(5000),
  })
  // Own keys only, even if a future zod runs this refinement after a failed enum.
  .refine((b) => Object.hasOwn(CONTACT_TOPICS, b.issue) && (CONTACT_TOPICS[b.issue] as readonly string[]).includes(b.topic), {
    error: 'topic_empty',
    path: ['topic'],
  });
export type ContactBody = z.infer<typeof contactBody>;
