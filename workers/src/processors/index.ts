import type { ProcessorMap } from '@portal/queue';
import { createSendMailProcessor, type SendMailDeps } from './send-mail.ts';

export { createSendMailProcessor };
export type ProcessorDeps = SendMailDeps;

/**
 * Every queue's processor. The embedded mode hands this map to the inline queue driver; each worker
 * entrypoint wraps one of them in a BullMQ Worker.
 */
export function createProcessors(deps: ProcessorDeps): Required<Pick<ProcessorMap, 'mail'>> {
  return { mail: createSendMailProcessor(deps) };
}
