/**
 * bench:class's phase report (issue 26): the app process runs with AYAH_TRACE_SENDS=1 and keeps the
 * send traces of the burst (server/http/send-trace.ts); the client prints each phase's p50/p95, in ms
 * since the send's headers were read, and how long the phase itself took (since the phase before it ended).
 *
 * What it showed (issue 26, 30 students, a machine at load 20+): inside the server, before the fix,
 * the send's transaction (11 round trips) and the reads beside it were the largest part on
 * PostgreSQL, queued for pooled connections; on PGlite every statement is a turn of the one thread.
 * Much of the students' wait lies outside the traced window (before a request's headers are read,
 * or in delivery), growing with the load: compare the client's ttft with `firstWrite`.
 */
import type { SendPhase, SendTrace } from '../../server/http/send-trace';
import { onSendTrace, SEND_PHASES } from '../../server/http/send-trace';

/** What one app process answers to `phases`: each phase's ends and its own durations. */
export type PhaseReport = Record<string, number[]>;

/** The phase a phase waits for: begin and context run side by side after auth; safety after both. */
function since(trace: SendTrace, phase: SendPhase): number {
  const i = SEND_PHASES.indexOf(phase);
  if (phase === 'context') return trace.auth ?? 0;
  if (phase === 'safety') return Math.max(trace.begin ?? 0, trace.context ?? 0);
  return i === 0 ? 0 : (trace[SEND_PHASES[i - 1]!] ?? 0);
}

/** Keeps this process's send traces until `reset`. */
export function keepPhases() {
  let traces: SendTrace[] = [];
  onSendTrace((trace) => traces.push(trace));
  return {
    reset: () => void (traces = []),
    report(): PhaseReport {
      const report: PhaseReport = {};
      for (const phase of SEND_PHASES) {
        const reached = traces.filter((t) => t[phase] !== undefined);
        report[`${phase}`] = reached.map((t) => t[phase]!);
        report[`${phase}:own`] = reached.map((t) => t[phase]! - since(t, phase));
      }
      return report;
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '–').padStart(5);

/** Prints the phases of every app process's sends together. */
export function printPhases(reports: PhaseReport[]) {
  const all = (key: string) => reports.flatMap((r) => r[key] ?? []);
  const n = all('firstWrite').length;
  console.log(
    `  phases of ${n} traced sends (ms since its headers were read: p50 p95 | the phase's own: p50 p95):`,
  );
  for (const phase of SEND_PHASES) {
    const at = all(phase);
    const own = all(`${phase}:own`);
    console.log(
      `    ${phase.padEnd(18)} ${ms(percentile(at, 50))} ${ms(percentile(at, 95))}  | ${ms(percentile(own, 50))} ${ms(percentile(own, 95))}`,
    );
  }
}
