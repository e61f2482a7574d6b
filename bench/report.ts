/**
 * What every bench's report shares: percentiles, wall and CPU time of a step, runs of a step summed up, and the load
 * average sampled while the bench runs (a wall-clock figure on a shared machine means little without it).
 */
import { cpus, loadavg, totalmem } from 'node:os';

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
};
export const ms = (value: number): string => value.toFixed(1);

/** Wall time and this process's CPU time (user + system), both in ms. */
export async function timed<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const cpu = process.cpuUsage();
  const begun = performance.now();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return [value, performance.now() - begun, (used.user + used.system) / 1000];
}

export interface RunStats<T> {
  p50: number;
  p95: number;
  max: number;
  /** This process's CPU per run, median, ms. */
  cpu: number;
  last: T;
}

/** `runs` timed runs of `fn` (after one untimed warm-up when `warm`): wall p50/p95/max and median CPU, in ms. */
export async function timedRuns<T>(runs: number, fn: (i: number) => Promise<T>, { warm = true } = {}): Promise<RunStats<T>> {
  if (warm) await fn(-1);
  const walls: number[] = [];
  const cpus: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < runs; i++) {
    const [value, wall, cpu] = await timed(() => fn(i));
    walls.push(wall);
    cpus.push(cpu);
    last = value;
  }
  return { p50: percentile(walls, 50), p95: percentile(walls, 95), max: Math.max(...walls), cpu: percentile(cpus, 50), last: last as T };
}

/** Samples the 1-minute load average every second until `stop`; `summary` reads max and mean. */
export function sampleLoad() {
  const loads: number[] = [];
  const timer = setInterval(() => loads.push(loadavg()[0]!), 1000);
  return {
    loads,
    stop: () => clearInterval(timer),
    summary: () => `load average during the run: max ${Math.max(...loads, loadavg()[0]!).toFixed(2)}, mean ${(loads.reduce((a, b) => a + b, 0) / Math.max(1, loads.length)).toFixed(2)}`,
  };
}

/** One line naming the machine, for the top of a report. */
export const machine = () => `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`;
