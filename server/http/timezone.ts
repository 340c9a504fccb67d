/**
 * The caller's time zone: the IANA name the client sends in `X-Timezone` (the browser's
 * `Intl.DateTimeFormat().resolvedOptions().timeZone`), so weeks and days count in the student's own
 * zone. Absent, unknown or malformed, it is UTC. Only names from the IANA list pass (never offsets
 * such as '+05:00', which PostgreSQL's AT TIME ZONE would read with the POSIX sign, reversed).
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';

export const TIMEZONE_HEADER = 'X-Timezone';
export const DEFAULT_TIMEZONE = 'UTC';

const ZONES = new Set<string>([DEFAULT_TIMEZONE, ...Intl.supportedValuesOf('timeZone')]);

/** The canonical IANA name of `value`, or UTC when it is absent or not a known zone. */
export function resolveTimeZone(value: string | null | undefined): string {
  const name = value?.trim();
  if (!name || name.length > 64) return DEFAULT_TIMEZONE;
  try {
    // Canonical spelling (case, links such as 'US/Pacific'), then the IANA list.
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions()
      .timeZone;
    if (ZONES.has(canonical)) return canonical;
    return ZONES.has(name) ? name : DEFAULT_TIMEZONE;
  } catch {
    return DEFAULT_TIMEZONE;
  }
}

/** The time zone of this request. */
export function requestTimeZone(c: Context): string {
  return resolveTimeZone(c.req.header(TIMEZONE_HEADER));
}

/** The header in OpenAPI, for routes whose answers count days or weeks. */
export const TimeZoneHeaders = z.object({
  'x-timezone': z.string().optional().openapi({
    description:
      'The caller’s IANA time zone (e.g. America/Los_Angeles): weeks (Monday–Sunday) and days are counted in it. UTC when absent or unknown.',
    example: 'Europe/Berlin',
  }),
});

/** 'YYYY-MM-DD' of the calendar day `at` falls on in `timeZone`. */
export function localDay(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
