import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface OneShotThread<M, R> {
  /** The thread's module (an `.mjs` entry beside the caller). */
  readonly url: URL;
  readonly workerData: unknown;
  /** Named in the errors of a crash or an early exit ("receipt thread crashed: …"). */
  readonly name: string;
  readonly resourceLimits?: ResourceLimits;
  /** Its abort ends the run with the signal's reason (the thread is terminated). */
  readonly signal?: AbortSignal | undefined;
  /**
   * Handles one message of the thread, in order: the next one waits until this one has settled. Answers the run's
   * result to end it, `undefined` to go on; a throw ends the run with that error.
   */
  onMessage(message: M, worker: Worker): Promise<R | undefined> | R | undefined;
}

/**
 * A worker thread of its own for one piece of work (a portfolio workbook, a receipts upload): started, fed its
 * messages to `onMessage` one at a time, and always terminated once the run has settled, whether by a result, a
 * failure of `onMessage`, an abort, a crash or an exit without a result.
 */
export function runOneShotThread<M, R>(run: OneShotThread<M, R>): Promise<R> {
  const worker = new Worker(run.url, { workerData: run.workerData, ...(run.resourceLimits ? { resourceLimits: run.resourceLimits } : {}) });
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { result: R } | { error: Error }) => {
      if (settled) return;
      settled = true;
      run.signal?.removeEventListener('abort', onAbort);
      worker.terminate().catch(() => {});
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.result);
    };
    const onAbort = () => finish({ error: run.signal?.reason instanceof Error ? run.signal.reason : new Error(`${run.name} aborted`) });
    run.signal?.addEventListener('abort', onAbort);
    let chain = Promise.resolve();
    worker.on('message', (message: M) => {
      chain = chain
        .then(async () => {
          if (settled) return;
          const result = await run.onMessage(message, worker);
          if (result !== undefined) finish({ result });
        })
        .catch((error: unknown) => finish({ error: error instanceof Error ? error : new Error(String(error)) }));
    });
    worker.on('error', (error) => finish({ error: new Error(`${run.name} crashed: ${error.message}`, { cause: error }) }));
    // Messages posted before the exit are handled first: a thread that posts its result and ends has not failed.
    worker.on('exit', (code) => {
      const exited = () => finish({ error: new Error(`${run.name} exited with code ${code}`) });
      chain.then(exited, exited);
    });
  });
}
