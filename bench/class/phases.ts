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
 *
 * `printTimeline` puts the client's stages (sent, written, the response's head, the first chunk) and
 * the server's phases (`accepted` included) on one clock, ms since the burst's first request. What
 * it showed (PostgreSQL, 30 students, load 0.1–3.5): the client had written every request by
 * ~35 ms (p95, for the endpoint alike), but Node accepted them at 110–200 ms p50, 140–310 ms p95:
 * the connections waited in the kernel's accept queue while the one thread ran the sends before
 * them (the profile is busy from the burst's first request on; no idle gap). Accept → headers read
 * took 1–4 ms, and first write → the client's first chunk 1–3 ms. So the wait the server's trace
 * did not see is the same CPU queue, met earlier: only less CPU a send shortens it.
 */
import type { SendPhase, SendTrace } from '../../server/http/send-trace';
import { onSendTrace, SEND_PHASES } from '../../server/http/send-trace';

/**
 * What one app process answers to `phases`: each phase's ends (`phase`), its own durations
 * (`phase:own`) and its ends as wall-clock ms since the epoch (`phase@`, to line up with the client's).
 */
export type PhaseReport = Record<string, number[]>;

/**
 * How long a phase itself took: since the phase it waits for (begin and context run side by side
 * after auth; safety after both). `accepted` ends before the zero (the headers read): its own time
 * is the wait from it up to the zero; `routed` starts at the zero.
 */
function own(trace: SendTrace, phase: SendPhase): number {
  const end = trace[phase]!;
  if (phase === 'accepted') return -end;
  if (phase === 'routed') return end;
  if (phase === 'context') return end - (trace.auth ?? 0);
  if (phase === 'safety') return end - Math.max(trace.begin ?? 0, trace.context ?? 0);
  return end - (trace[SEND_PHASES[SEND_PHASES.indexOf(phase) - 1]!] ?? 0);
}

/** Keeps this process's send traces until `reset`. */
export function keepPhases() {
  let traces: { trace: SendTrace; at: number }[] = [];
  onSendTrace((trace, at) => traces.push({ trace, at }));
  return {
    reset: () => void (traces = []),
    report(): PhaseReport {
      const report: PhaseReport = {};
      for (const phase of SEND_PHASES) {
        const reached = traces.filter((t) => t.trace[phase] !== undefined);
        report[`${phase}`] = reached.map((t) => t.trace[phase]!);
        report[`${phase}:own`] = reached.map((t) => own(t.trace, phase));
        report[`${phase}@`] = reached.map((t) => t.at + t.trace[phase]!);
      }
      report['headersRead@'] = traces.map((t) => t.at);
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
  if (n === 0) return console.log('  no send traced (--untraced)');
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

/** The client's side of a burst: when it began, and when each stage of each stream ended (epoch ms). */
export interface ClientView {
  start: number;
  stages: Record<string, number[]>;
}

/**
 * Prints the client's stages and the servers' phases of a burst on one clock, ms since the burst's
 * first request was sent (p50 p95), in the order of their p50: where the students' wait goes, the
 * part before the server read a request and the part after it wrote the first words included.
 */
export function printTimeline(reports: PhaseReport[], client: ClientView, label: string) {
  const all = (key: string) => reports.flatMap((r) => r[key] ?? []);
  const rows = [
    ...Object.entries(client.stages).map(([stage, ends]) => ({ name: `client ${stage}`, ends })),
    { name: 'server headersRead', ends: all('headersRead@') },
    ...SEND_PHASES.map((phase) => ({ name: `server ${phase}`, ends: all(`${phase}@`) })),
  ]
    .filter((row) => row.ends.length > 0)
    .map((row) => {
      const since = row.ends.map((end) => end - client.start);
      return { ...row, p50: percentile(since, 50), p95: percentile(since, 95) };
    })
    .sort((a, b) => a.p50 - b.p50);
  console.log(
    `  ${label}, on one clock (ms since the burst's first request was sent: p50 p95, and how many):`,
  );
  for (const row of rows)
    console.log(`    ${row.name.padEnd(26)} ${ms(row.p50)} ${ms(row.p95)}  (${row.ends.length})`);
}
