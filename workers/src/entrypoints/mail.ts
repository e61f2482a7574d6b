import { createMailTransport } from '@portal/mail';
import { createSendMailProcessor } from '@portal/jobs';
import { runWorker } from './run-worker.ts';

/** The mail worker process: consumes the `mail` queue; scale it by running more of these. */
await runWorker('mail', (config) => config.workers.concurrency.mail, ({ config, database, logger }) => {
  const transport = createMailTransport(config.mail);
  return { processor: createSendMailProcessor({ db: database.db, transport, logger }), close: () => transport.close() };
});
