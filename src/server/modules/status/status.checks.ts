import { performance } from 'node:perf_hooks';
import type { CheckState, StatusComponentId } from '#shared/schemas/status.js';

/** Every probe gives up after this long; a provider that has not answered by then counts as down. */
export const CHECK_TIMEOUT_MS = 3000;
/** An answer slower than this is degraded: it works, but people will notice. */
export const SLOW_AFTER_MS = 1500;

export interface CheckResult {
  component: StatusComponentId;
  state: CheckState;
  latencyMs: number | null;
  detail: string | null;
}

export interface Probe {
  component: StatusComponentId;
  run(signal: AbortSignal): Promise<ProbeOutcome>;
}

/** What a probe observed; `classify` turns it into a state. */
export type ProbeOutcome =
  | { kind: 'ok'; note?: string }
  /** It answered, but not as expected (e.g. a body without the fields a healthy answer has). */
  | { kind: 'unexpected'; note: string }
  | { kind: 'http-error'; status: number };

function describeError(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `No answer within ${timeoutMs} ms`;
  const cause = (err as { cause?: { code?: string } } | null)?.cause;
  if (cause?.code === 'ECONNREFUSED') return 'Connection refused';
  if (cause?.code === 'ENOTFOUND') return 'Host not found';
  if (cause?.code) return `Connection failed (${cause.code})`;
  return err instanceof Error ? err.message.slice(0, 200) : 'Check failed';
}

/**
 * Runs one probe with a timeout and classifies it:
 * - down: no answer in time, a connection error, a 5xx or a 4xx other than 429 (our calls would fail);
 * - degraded: answered but slow, rate-limited (429), or an answer that does not look healthy;
 * - up: a healthy answer in time.
 */
export async function runProbe(probe: Probe, timeoutMs = CHECK_TIMEOUT_MS, slowAfterMs = SLOW_AFTER_MS): Promise<CheckResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const started = performance.now();
  try {
    // The race covers probes that ignore the signal (a hung database query).
    const outcome = await Promise.race([
      probe.run(controller.signal),
      new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })),
    ]);
    const latencyMs = Math.round(performance.now() - started);
    const base = { component: probe.component, latencyMs };
    if (outcome.kind === 'http-error') {
      return { ...base, state: outcome.status === 429 ? 'degraded' : 'down', detail: `Answered HTTP ${outcome.status}` };
    }
    if (outcome.kind === 'unexpected') return { ...base, state: 'degraded', detail: outcome.note };
    if (latencyMs > slowAfterMs) return { ...base, state: 'degraded', detail: `Slow answer (${latencyMs} ms)` };
    return { ...base, state: 'up', detail: null };
  } catch (err) {
    return { component: probe.component, state: 'down', latencyMs: null, detail: describeError(err, timedOut, timeoutMs) };
  } finally {
    clearTimeout(timer);
  }
}

/** A GET whose healthy answer is a 2xx JSON body that `looksHealthy` accepts. */
export function httpProbe(
  component: StatusComponentId,
  url: () => string,
  options: { headers?: () => Record<string, string>; looksHealthy?: (body: unknown) => string | null } = {},
): Probe {
  return {
    component,
    async run(signal) {
      const res = await fetch(url(), {
        headers: { accept: 'application/json', ...(options.headers?.() ?? {}) },
        signal,
        redirect: 'manual',
      });
      const text = await res.text();
      if (!res.ok) return { kind: 'http-error', status: res.status };
      if (!options.looksHealthy) return { kind: 'ok' };
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return { kind: 'unexpected', note: 'Answered, but not with JSON' };
      }
      const problem = options.looksHealthy(body);
      return problem ? { kind: 'unexpected', note: problem } : { kind: 'ok' };
    },
  };
}
