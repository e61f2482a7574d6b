/** What the benches read of a process from Linux's /proc: its CPU time and its memory. */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) a process has used so far, every thread, or one thread with `tid`; 0 once it is gone.
 * The fields after the command name (which may hold spaces): utime and stime are the 14th and 15th.
 */
export function cpuOf(pid: number, tid?: string): number {
  try {
    const stat = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks: USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/** Resident set (VmRSS) and its peak so far (VmHWM) of a process, in MB. */
export function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** CPU seconds used so far by the PostgreSQL backends connected to `database` (their command line names it). */
export function backendsCpu(database: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.startsWith('postgres:') && cmd.includes(` ${database} `)) total += cpuOf(Number(entry));
    } catch {
      // gone
    }
  }
  return total;
}

/**
 * A process's resident memory by kind, from /proc/<pid>/smaps (MB): WebAssembly memories (anonymous mappings
 * of ≥ 4 GiB: V8 reserves a wasm memory's whole address space with its guard pages; PGlite's is the only one
 * in the API), the other anonymous memory (V8 heaps of every isolate, malloc: Buffers, zlib), file-backed.
 */
export function memoryKinds(pid: number): { wasm: number; anon: number; file: number } {
  const out = { wasm: 0, anon: 0, file: 0 };
  let size = 0;
  let kind: 'wasm' | 'anon' | 'file' = 'anon';
  try {
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
      if (head) {
        size = (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 2 ** 20;
        kind = head[3] !== '0' ? 'file' : size >= 4096 ? 'wasm' : 'anon';
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss) out[kind] += Number(rss[1]) / 1024;
    }
  } catch {
    // gone
  }
  return out;
}

/** CPU seconds so far of each thread of a process, by thread id (the main thread's id is the pid). */
export function threadsCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) out.set(tid, cpuOf(pid, tid));
  } catch {
    // gone
  }
  return out;
}
