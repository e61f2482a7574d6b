import { Redis } from 'ioredis';

export interface RedisQueueCheck {
  /** False when a setting makes BullMQ unsafe (refuse to start, or alarm). */
  ok: boolean;
  problems: string[];
  /** Risky but workable (e.g. no AOF: up to the last snapshot can be lost on a crash). */
  warnings: string[];
}

/**
 * BullMQ is only correct on Redis with `maxmemory-policy noeviction` (evicted keys corrupt
 * queues); AOF is recommended. Uses its own short-lived connection.
 */
export async function checkRedisForQueues(redisUrl: string): Promise<RedisQueueCheck> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => null });
  client.on('error', () => {}); // surfaced through the rejected commands below
  try {
    await client.connect();
    const policy = await configGet(client, 'maxmemory-policy');
    const appendonly = await configGet(client, 'appendonly');
    if (policy === undefined) {
      warnings.push('CONFIG GET is not allowed: cannot verify maxmemory-policy (must be noeviction)');
    } else if (policy !== 'noeviction') {
      problems.push(`maxmemory-policy is "${policy}"; BullMQ requires "noeviction" (evicted keys corrupt queues)`);
    }
    if (appendonly === 'no') warnings.push('appendonly is "no": jobs acknowledged since the last snapshot are lost if Redis restarts');
  } catch (error) {
    problems.push(`Redis unreachable: ${(error as Error).message}`);
  } finally {
    client.disconnect();
  }
  return { ok: problems.length === 0, problems, warnings };
}

async function configGet(client: Redis, parameter: string): Promise<string | undefined> {
  try {
    const reply = (await client.config('GET', parameter)) as string[];
    return reply[1];
  } catch {
    return undefined; // managed Redis services often disable CONFIG
  }
}
