import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface Child {
  process: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp): Promise<void>;
  exited: Promise<number | null>;
}

/** Runs a TypeScript file of this folder as its own Node process (tsx), capturing its output. */
export function runChild(script: string, args: string[], cwd: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script), ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    output: () => output,
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        // Polls the output; the test's own timeout bounds a child that never prints.
        const timer = setInterval(() => {
          if (pattern.test(output)) {
            clearInterval(timer);
            resolve();
          } else if (child.exitCode !== null) {
            clearInterval(timer);
            reject(new Error(`${script} exited (${child.exitCode}) before printing ${pattern}:\n${output}`));
          }
        }, 25);
      }),
  };
}
