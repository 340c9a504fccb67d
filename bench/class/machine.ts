/**
 * Where the machine's CPU went during a burst (issue 26): how busy its cores were, and each
 * process's share — the app, PostgreSQL (every `postgres` process: the postmaster, its backends and
 * workers), the scripted endpoint and this client. On this 2-core machine all of them share the
 * same cores, so a burst through Ayah is slower than the same burst straight from the endpoint by
 * what the app and PostgreSQL take of them; the line under each burst says how much that was.
 *
 * And the app's main thread (its JavaScript): how long it ran, and how long it stood ready to run
 * while another task had its core. At 300 at once on PostgreSQL that wait was a third of the span
 * until the first words (on a core 222–270 ms, waiting 120–156 ms), while a core sat idle part of
 * it: each socket write wakes the process that reads it, and Linux puts a task woken by a socket
 * write on the writer's core, where it takes the core from the app (perf's sched_switch, one burst:
 * 639 times in 384 ms, PostgreSQL 261 of them, the endpoint and this client 318).
 *
 * Read from Linux's /proc (user + system time, in clock ticks of 10 ms; a thread's schedstat, in
 * ns); elsewhere it says nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** Linux's USER_HZ: /proc counts CPU time in ticks of 10 ms. */
const TICK_MS = 10;

/** A process's user + system time in ticks, all its threads; 0 once it is gone. */
function ticksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command (in parentheses, which may hold spaces): utime is the 12th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * A thread's time on a core and its time ready to run but waiting for one, ns since it started
 * (/proc/<pid>/task/<tid>/schedstat); null once it is gone.
 */
function scheduled(pid: number, tid = pid): { onCore: number; waiting: number } | null {
  try {
    const [onCore, waiting] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8')
      .split(' ')
      .map(Number);
    return { onCore: onCore!, waiting: waiting! };
  } catch {
    return null;
  }
}

/** The ticks every core spent busy (not idle, not waiting for I/O), and in all, since boot. */
function machineTicks(): { busy: number; all: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number);
  const busy = user! + nice! + system! + irq! + softirq! + steal!;
  return { busy, all: busy + idle! + iowait! };
}

/** Every running PostgreSQL process of this machine (`comm` is `postgres`). */
function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
}

export interface CpuShare {
  wallMs: number;
  /** How many of the machine's cores were busy on average (0 … cores). */
  coresBusy: number;
  /** CPU ms of each role over the span. */
  byRole: Record<string, number>;
  /** The app processes' main threads over the span, summed: ms on a core, and ready but waiting. */
  appThreads?: { count: number; onCoreMs: number; waitingMs: number };
}

/**
 * Starts measuring `roles` (pids by name; `postgres` is added when any runs); `stop()` answers the
 * shares of the span so far, and may be asked again later (a burst's start, then all of it). Null
 * where there is no /proc.
 */
export function cpuMeter(roles: Record<string, number[]>): { stop(): CpuShare } | null {
  if (!existsSync('/proc/stat')) return null;
  const pg = postgresPids();
  const all: Record<string, number[]> = pg.length > 0 ? { ...roles, PostgreSQL: pg } : roles;
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + ticksOf(pid), 0);
  const before = Object.fromEntries(Object.entries(all).map(([role, pids]) => [role, sum(pids)]));
  const apps = roles.app ?? [];
  const threadsBefore = apps.map((pid) => scheduled(pid));
  const machine = machineTicks();
  const start = performance.now();
  return {
    stop() {
      const wallMs = performance.now() - start;
      const now = machineTicks();
      const cores = os.cpus().length;
      const allTicks = now.all - machine.all;
      // Each main thread's own difference; one that ended meanwhile counts for nothing.
      const threads = apps.map((pid, i) => {
        const [then, now] = [threadsBefore[i], scheduled(pid)];
        return then && now
          ? { onCore: now.onCore - then.onCore, waiting: now.waiting - then.waiting }
          : { onCore: 0, waiting: 0 };
      });
      const msOf = (ns: number) => ns / 1e6;
      return {
        wallMs,
        coresBusy: allTicks > 0 ? ((now.busy - machine.busy) / allTicks) * cores : 0,
        byRole: Object.fromEntries(
          Object.entries(all).map(([role, pids]) => [role, (sum(pids) - before[role]!) * TICK_MS]),
        ),
        ...(apps.length > 0 && {
          appThreads: {
            count: apps.length,
            onCoreMs: msOf(threads.reduce((total, t) => total + t.onCore, 0)),
            waitingMs: msOf(threads.reduce((total, t) => total + t.waiting, 0)),
          },
        }),
      };
    },
  };
}

/** `machine: 1.74 of 2 cores busy over 4,310 ms (app 2,640 ms, …)`. */
export function describeShare(share: CpuShare): string {
  const ms = (value: number) => Math.round(value).toLocaleString('en');
  const roles = Object.entries(share.byRole)
    .map(([role, used]) => `${role} ${ms(used)}`)
    .join(', ');
  const threads = share.appThreads;
  const whose =
    threads?.count === 1 ? "the app's main thread" : `the ${threads?.count} apps' main threads`;
  const thread = threads
    ? `; ${whose} on a core ${ms(threads.onCoreMs)} ms, ready but waiting for one ${ms(threads.waitingMs)} ms`
    : '';
  return `${share.coresBusy.toFixed(2)} of ${os.cpus().length} cores busy over ${ms(share.wallMs)} ms (CPU ms: ${roles})${thread}`;
}
