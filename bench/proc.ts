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

/**
 * This process's own peak RSS (MB): VmHWM of /proc/self/status. Not `process.resourceUsage().maxRSS`: Linux keeps
 * ru_maxrss across execve, so a child spawned by a bench that holds 700 MB reports 700 MB whatever it used itself.
 */
export function ownPeakRssMb(): number {
  return rssOf(process.pid).peak;
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
 * A process's resident memory by kind, from /proc/<pid>/smaps (MB): WebAssembly memories (V8 reserves a wasm
 * memory's whole address space, ~10 GiB: the accessible part, read-write, is followed by the rest, inaccessible;
 * PGlite's is the only one in the API), the other anonymous memory (every isolate's V8 heap, malloc: Buffers,
 * zlib), file-backed (code).
 */
export function memoryKinds(pid: number): { wasm: number; anon: number; file: number } {
  const out = { wasm: 0, anon: 0, file: 0 };
  const maps: Array<{ start: number; end: number; perm: string; file: boolean; rss: number }> = [];
  try {
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)/.exec(line);
      if (head) {
        maps.push({ start: parseInt(head[1]!, 16), end: parseInt(head[2]!, 16), perm: head[3]!, file: head[4] !== '0', rss: 0 });
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss && maps.length > 0) maps[maps.length - 1]!.rss = Number(rss[1]) / 1024;
    }
  } catch {
    // gone
  }
  maps.forEach((m, i) => {
    const next = maps[i + 1];
    const reserved = next && !next.file && next.perm.startsWith('---') && next.start === m.end ? next.end - m.start : 0;
    out[m.file ? 'file' : reserved >= 4 * 2 ** 30 ? 'wasm' : 'anon'] += m.rss;
  });
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
