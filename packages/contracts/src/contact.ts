import { z } from 'zod';
import { emailSchema } from './auth.ts';

/** The spec's issue → topic map for the contact form. */
export const CONTACT_TOPICS = {
  patent: ['patent_missing', 'patent_issue', 'receipt_demand'],
  ledes: ['ledes_verification', 'ledes_display'],
  trademark: ['trademark_missing', 'trademark_issue'],
  account: ['account_loggin', 'account_update', 'account_remove'],
  other: ['other_issue', 'other_download', 'other_display'],
} as const satisfies Record<string, readonly string[]>;
export type ContactIssue = keyof typeof CONTACT_TOPICS;
export const CONTACT_ISSUES = Object.keys(CONTACT_TOPICS) as ContactIssue[];

export const contactBody = z
  .strictObject({
    mail: emailSchema,
    issue: z.string({ error: 'issue_empty' }).min(1, { error: 'issue_empty' }).max(50).refine((i) => i in CONTACT_TOPICS, { error: 'issue_empty' }),
    topic: z.string({ error: 'topic_empty' }).min(1, { error: 'topic_empty' }).max(50),
    details: z.string({ error: 'message_empty' }).trim().min(1, { error: 'message_empty' }).max(5000),
  })
  .refine((b) => (CONTACT_TOPICS[b.issue as ContactIssue] as readonly string[] | undefined)?.includes(b.topic) ?? false, {
    error: 'topic_empty',
    path: ['topic'],
  });
export type ContactBody = z.infer<typeof contactBody>;
