/**
 * The memory and CPU of this process's descendants (the sessions' Chromium browsers and
 * their helpers), read from /proc (Linux), for the load and capacity benchmarks.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;

export interface Proc {
  rssKb: number;
  cpuS: number;
  /** What the process is: Chromium's browser process, the extension's renderer (its worker), a page's renderer, or a helper. */
  kind: 'browser' | 'extension' | 'page' | 'helper';
}

/** A Chromium process's kind, from its command line (--type=..., --extension-process). */
function kindOf(pid: number): Proc['kind'] {
  let argv: string[] = [];
  try {
    // Chromium rewrites its helpers' titles, which joins their arguments with spaces.
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
  } catch {
    return 'helper';
  }
  const type = argv.find((a) => a.startsWith('--type='))?.slice(7);
  if (!type) return /chrom/i.test(argv[0] ?? '') ? 'browser' : 'helper';
  if (type === 'renderer') return argv.includes('--extension-process') ? 'extension' : 'page';
  return 'helper';
}

/**
 * The processes this one started, and theirs (the sessions' Chromium browsers and helpers):
 * resident memory and CPU seconds used so far, from /proc (Linux).
 */
export function browserProcs(): Map<number, Proc> {
  const all = new Map<number, { ppid: number } & Omit<Proc, 'kind'>>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime(15) ... rss(24).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.set(Number(name), { ppid: Number(f[1]), cpuS: (Number(f[11]) + Number(f[12])) / TICKS, rssKb: Number(f[21]) * 4 });
    } catch {
      /* the process ended while being read */
    }
  }
  const out = new Map<number, Proc>();
  const inTree = (pid: number): boolean => {
    for (let p = all.get(pid)?.ppid, depth = 0; p && depth < 16; p = all.get(p)?.ppid, depth++) if (p === process.pid) return true;
    return false;
  };
  for (const [pid, p] of all) {
    if (!inTree(pid)) continue;
    // Proportional set size: shared pages counted once across the processes that share them.
    let pssKb = p.rssKb;
    try {
      pssKb = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? p.rssKb);
    } catch {
      /* ended meanwhile: its RSS stands in */
    }
    out.set(pid, { rssKb: pssKb, cpuS: p.cpuS, kind: kindOf(pid) });
  }
  return out;
}
export const sum = (m: Map<number, Proc>, k: 'rssKb' | 'cpuS') => [...m.values()].reduce((a, p) => a + p[k], 0);

/** CPU seconds each kind of process used between two readings (a process that started meanwhile counts from zero). */
export function cpuByKind(before: Map<number, Proc>, after: Map<number, Proc>): Record<Proc['kind'], number> {
  const out = { browser: 0, extension: 0, page: 0, helper: 0 };
  for (const [pid, p] of after) out[p.kind] += p.cpuS - (before.get(pid)?.cpuS ?? 0);
  return out;
}
/** The p-th percentile of xs (nearest rank). */
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
