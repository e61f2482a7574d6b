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
  /**
   * Starts the thread now if there is none, ahead of a run expected soon (a LEDES upload being received, decision
   * 211): its start (tsx and the engine's modules, 0.4–2 s) then overlaps the upload instead of following it. With no
   * run under way the idle delay starts at once, so a thread no run comes for stops as an idle one does.
   */
  warm(): void;
  /** Stops the thread; runs still in it fail. The next run starts a new one. */
  close(): Promise<void>;
}

/**
 * The runs under way in a shared thread. With `idleMs`, the thread is stopped once no run has used it
 * for that long: its heap (grown by a big file) goes back to the system instead of staying with the
 * process until the next run (issue 28); the next run starts a new thread.
 */
class ActiveRuns extends Set<(error: Error) => void> {
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly idleMs: number | undefined,
    private readonly onIdle: () => void,
  ) {
    super();
  }

  override add(fail: (error: Error) => void): this {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    return super.add(fail);
  }

  override delete(fail: (error: Error) => void): boolean {
    const deleted = super.delete(fail);
    if (deleted && this.size === 0) this.idle();
    return deleted;
  }

  /** No run under way: the idle delay starts again (its end stops the thread). */
  idle(): void {
    if (this.size > 0 || this.idleMs === undefined) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.size === 0) this.onIdle();
    }, this.idleMs);
    this.idleTimer.unref();
  }
}

export function createSharedThread(url: URL, name: string, options: { resourceLimits?: ResourceLimits | undefined; idleMs?: number } = {}): SharedThread {
  let worker: Worker | null = null;
  /**
   * Threads stopped while idle: their 'exit' fails no run. A run may start (and register in `active`)
   * between the stop and that exit, on a new thread; failing it for the old one's exit lost a run.
   */
  const retired = new WeakSet<Worker>();
  const active = new ActiveRuns(options.idleMs, () => {
    const idle = worker;
    worker = null;
    if (!idle) return;
    retired.add(idle);
    // A failed terminate leaves an unref'd thread.
    idle.terminate().catch(() => {});
  });
  return {
    active,
    warm() {
      this.thread();
      active.idle();
    },
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
