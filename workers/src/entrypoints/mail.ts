import { createMailTransport } from '@portal/mail';
import { mailJob } from '@portal/jobs';
import { runWorker } from './run-worker.ts';

/** The mail worker process: consumes the `mail` queue; scale it by running more of these. */
await runWorker(mailJob, ({ config, database, logger }) => {
  const transport = createMailTransport(config.mail);
  return { ports: { db: database.db, transport, logger }, close: () => transport.close() };
});
