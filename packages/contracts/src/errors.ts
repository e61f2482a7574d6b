import { z } from 'zod';
import { ERROR_CODE_LIST } from './constants.ts';
import { refusedInstructionRowSchema } from './patents.ts';


/** Every failure answer: `{ success: false, message, code }`, the message translated server-side. */
export const errorEnvelopeSchema = z.strictObject({
  success: z.literal(false),
  message: z.string(),
  code: z.enum(ERROR_CODE_LIST),
  /** Per-field codes when a body fails validation. */
  fields: z.record(z.string(), z.string()).optional(),
  /** `instructions_refused`: the rows of a bulk instruction update that were refused, and why (nothing was applied). */
  not_updated: z.array(refusedInstructionRowSchema).optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;
