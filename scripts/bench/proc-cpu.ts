// CPU time per process group, from /proc (Linux): utime+stime of every live process in a group, plus
// cutime+cstime (children that already exited and were reaped, e.g. PostgreSQL backends), in clock ticks.
import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // `getconf CLK_TCK` on Linux

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  own: number; // utime + stime
  reaped: number; // cutime + cstime
}

function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // gone
  }
  const close = text.lastIndexOf(')'); // comm may contain spaces and parentheses
  const f = text.slice(close + 2).split(' '); // f[0] = state (field 3)
  return { pid, ppid: Number(f[1]), comm: text.slice(text.indexOf('(') + 1, close), own: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
}

function allProcesses(): ProcStat[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readStat(Number(d)))
    .filter((s): s is ProcStat => s !== null);
}

/** Where a group's processes are: the trees under `roots`, processes named `comm` (and whose command line has `cmdline`), or `self` (own time only). */
export interface CpuGroup {
  name: string;
  roots?: (number | undefined)[];
  comm?: string;
  cmdline?: string;
  self?: boolean;
}

export function cmdlineOf(pid: number | undefined): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** CPU seconds used so far by each group (a process counts once, in the first group that claims it). */
export function cpuSeconds(groups: CpuGroup[]): Record<string, number> {
  const procs = allProcesses();
  const children = new Map<number, ProcStat[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const claimed = new Set<number>();
  const out: Record<string, number> = {};
  for (const g of groups) {
    let ticks = 0;
    const take = (p: ProcStat, withReaped: boolean) => {
      if (claimed.has(p.pid)) return;
      claimed.add(p.pid);
      ticks += p.own + (withReaped ? p.reaped : 0);
    };
    if (g.self) take(readStat(process.pid)!, false);
    for (const root of g.roots ?? []) {
      const stack = procs.filter((p) => p.pid === root);
      for (let p = stack.pop(); p; p = stack.pop()) {
        take(p, true);
        stack.push(...(children.get(p.pid) ?? []));
      }
    }
    if (g.comm) for (const p of procs) if (p.comm === g.comm && (!g.cmdline || cmdlineOf(p.pid).includes(g.cmdline))) take(p, true);
    out[g.name] = ticks / TICKS_PER_SECOND;
  }
  return out;
}

/** CPU seconds the whole machine has been busy (all cores, /proc/stat: user nice system irq softirq steal). */
export function machineBusySeconds(): number {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6] + f[7]) / TICKS_PER_SECOND;
}

/** A reading for cpuUsed: each group's CPU seconds so far, and the whole machine's. */
export function cpuReading(groups: CpuGroup[]): Record<string, number> {
  return { ...cpuSeconds(groups), machine: machineBusySeconds() };
}

/** CPU seconds per group between two readings, and what the rest of the machine used (other users skew the figures). */
export function cpuUsed(before: Record<string, number>, after: Record<string, number>, restLabel: string): Record<string, number> {
  const used = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
  const { machine, ...ours } = used;
  return { ...ours, [restLabel]: machine - Object.values(ours).reduce((a, b) => a + b, 0) };
}
