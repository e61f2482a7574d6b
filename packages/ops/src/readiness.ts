/** A check slower than this counts as down: a readiness probe must answer even when a dependency hangs. */
export const CHECK_TIMEOUT_MS = 3000;

export type Readiness = Record<string, () => Promise<void>>;

function withinTimeout(check: () => Promise<void>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), CHECK_TIMEOUT_MS);
  });
  const result = Promise.resolve()
    .then(check)
    .then(
      () => 'ok' as const,
      () => 'down' as const,
    );
  return Promise.race([result, timeout]).finally(() => clearTimeout(timer));
}

/** Runs every check at once, each bounded by CHECK_TIMEOUT_MS: `ok` only when all answer. */
export async function checkReadiness(readiness: Readiness): Promise<{ ok: boolean; checks: Record<string, 'ok' | 'down'> }> {
  const names = Object.keys(readiness);
  const results = await Promise.all(names.map((name) => withinTimeout(readiness[name]!)));
  return { ok: results.every((r) => r === 'ok'), checks: Object.fromEntries(names.map((name, i) => [name, results[i]!])) };
}
