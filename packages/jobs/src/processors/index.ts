import type { ProcessorMap } from '@portal/queue';
import { sharedThreadEngine } from '../ledes/engine-thread.ts';
import { createCheckLedesProcessor, markLedesRunFailed, publishRun, type CheckLedesDeps } from './check-ledes.ts';
import { createSendMailProcessor, type SendMailDeps } from './send-mail.ts';

export { createCheckLedesProcessor, createSendMailProcessor, markLedesRunFailed, publishRun };
export type ProcessorDeps = SendMailDeps & CheckLedesDeps;

/**
 * Every queue's processor. The embedded mode hands this map to the inline queue driver; each worker
 * entrypoint wraps one of them in a BullMQ Worker.
 */
export function createProcessors(deps: ProcessorDeps): Required<Pick<ProcessorMap, 'mail' | 'ledes'>> {
  // In-process, the LEDES engine runs in a worker thread so a big file never blocks the API's event loop.
  return { mail: createSendMailProcessor(deps), ledes: createCheckLedesProcessor({ engine: sharedThreadEngine(), ...deps }) };
}
