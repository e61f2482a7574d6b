import { loadConfig } from '@portal/config';
import { openDatabase } from '@portal/db';
import { createLogger } from '@portal/logger';
import { createMailTransport } from '@portal/mail';
import { checkRedisForQueues, closeGracefully, startBullmqWorker } from '@portal/queue';
import { createSendMailProcessor } from '../processors/send-mail.ts';

/** The mail worker process: consumes the `mail` queue; scale it by running more of these. */
const config = loadConfig();
const logger = createLogger({ level: config.logLevel, name: 'worker-mail' });
if (!config.redisUrl || config.database.driver !== 'postgres') {
  logger.fatal('the mail worker needs REDIS_URL and DATABASE_URL; in the embedded mode the API runs the processors itself');
  process.exit(1);
}
const redis = await checkRedisForQueues(config.redisUrl);
for (const problem of redis.problems) logger.warn({ problem }, 'redis configuration');
if (!redis.ok) process.exit(1);

const database = openDatabase(config.database);
const transport = createMailTransport(config.mail);
const worker = startBullmqWorker('mail', createSendMailProcessor({ db: database.db, transport, logger }), {
  redisUrl: config.redisUrl,
  concurrency: config.workers.concurrency.mail,
  onFailed: (_queue, payload, error) => logger.error({ err: error, payload }, 'mail job failed'),
});
logger.info({ concurrency: config.workers.concurrency.mail }, 'mail worker started');

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'mail worker stopping');
  await closeGracefully([() => worker.close(), async () => transport.close(), () => database.close()], 30_000);
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
