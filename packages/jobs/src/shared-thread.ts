import { once } from 'node:events';
import { parentPort, Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * One worker thread shared by the runs of a process (the LEDES and annuities engines): started on
 * first use (a thread costs a second or more to start: tsx and the engine's libraries), unref'd when
 * idle (each run's port keeps the process alive while it works). A thread that crashes or exits fails
 * every run registered in `active`, with the reason, like any infrastructure error; the next run
 * starts a fresh one.
 */
export interface SharedThread {
  /** The thread, started if there is none. */
  thread(): Worker;
  /** The runs under way: each one's failure callback, added when it starts and removed when it settles. */
  readonly active: Set<(error: Error) => void>;
  /** Stops the thread; runs still in it fail. The next run starts a new one. */
  close(): Promise<void>;
  /**
   * Stops the thread if no run uses it, giving its memory back; a run started afterwards gets a new
   * thread and is not failed by this one's exit.
   */
  retireIfIdle(): Promise<void>;
}

export function createSharedThread(url: URL, name: string, options: { resourceLimits?: ResourceLimits | undefined } = {}): SharedThread {
  let worker: Worker | null = null;
  const active = new Set<(error: Error) => void>();
  /** Threads stopped while idle: their exit is no run's failure. */
  const retired = new WeakSet<Worker>();
  return {
    active,
    thread() {
      if (worker) return worker;
      const started = new Worker(url, { resourceLimits: options.resourceLimits });
      started.unref();
      const failAll = (error: Error) => {
        if (retired.has(started)) return;
        if (worker === started) worker = null;
        for (const fail of [...active]) fail(error);
      };
      started.on('error', (error) => failAll(new Error(`${name} thread crashed: ${error.message}`, { cause: error })));
      started.on('exit', (code) => failAll(new Error(`${name} thread exited with code ${code}`)));
      worker = started;
      return started;
    },
    async retireIfIdle() {
      const idle = worker;
      if (!idle || active.size > 0) return;
      worker = null;
      retired.add(idle);
      const exited = once(idle, 'exit');
      await idle.terminate();
      await exited.catch(() => {});
    },
    async close() {
      const running = worker;
      worker = null;
      if (running) {
        const exited = once(running, 'exit');
        await running.terminate();
        await exited.catch(() => {});
      }
    },
  };
}

/**
 * The thread's side: each message on the parent port is one run, handed to `serve`, which reports
 * the run's own failures on the run's port. Anything escaping it is a broken thread: crash it, so
 * the main thread fails every run it had there (the Worker's 'error') instead of waiting forever.
 */
export function serveRuns<T>(serve: (request: T) => Promise<void>): void {
  parentPort!.on('message', (request: T) => {
    serve(request).catch((error: unknown) => {
      setImmediate(() => {
        throw error;
      });
    });
  });
}
