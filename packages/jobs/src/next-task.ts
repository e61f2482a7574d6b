/**
 * Resolves from a later turn of the event loop, after the timers and I/O already waiting. The jobs'
 * database writes start from it: on the embedded portal PGlite runs each statement on the main
 * thread, and statements chained as bare promise callbacks follow each other inside one task, so
 * HTTP and socket.io wait for all of them (issue 26).
 */
export const nextTask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
