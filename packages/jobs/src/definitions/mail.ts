import { DEFAULT_RETRY, defineJob } from '@portal/queue';
import { createSendMailProcessor, type SendMailDeps } from '../processors/send-mail.ts';

/**
 * The `mail` queue: sends one recorded mail (`send-mail.ts`). A mail keeps `last_error` and no
 * sent_at while it fails; the sweep enqueues it again (SMTP back) until it is a day old, after which
 * it is given up (the links it carries have expired).
 */
export const mailJob = defineJob<'mail', SendMailDeps>({
  queue: 'mail',
  timeoutMs: 24 * 60 * 60_000,
  retry: DEFAULT_RETRY,
  concurrency: 4,
  processor: (ports) => createSendMailProcessor(ports),
  // The row already holds `last_error`; the sweep sends it once the transport is back.
  onFinalFailure: (ports) => async ({ mailId }, { error, attemptsMade }) => {
    ports.logger.error({ err: error, mailId, attemptsMade }, 'mail job failed for good; the sweep will enqueue it again');
  },
});
