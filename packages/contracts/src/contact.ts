import { z } from 'zod';
import { emailSchema } from './auth.ts';
import { text } from './text.ts';
import { CONTACT_ISSUES, CONTACT_TOPICS } from './constants.ts';


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
