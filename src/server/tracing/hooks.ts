/**
 * What the rest of the server asks of tracing, without importing OpenTelemetry: `traceHooks.current`
 * stays null unless OTEL_EXPORTER_OTLP_ENDPOINT is set and server.ts started tracing (start.ts) before
 * building the app, so with tracing off nothing is loaded and every check is one null test
 * (docs/decisions/0272-traces-only-when-asked.md).
 */
export interface TraceHooks {
  /** The trace id of the active span, if any. */
  traceId(): string | undefined;
  /** The active trace context as W3C headers, to carry in a queued job's data. */
  inject(): Record<string, string>;
  /** Runs a job's handler in a span that continues the trace carried by `carrier` (the one that queued it). */
  /** Runs `run` outside any trace (work that outlives the caller, like the job queue's workers). */
  detached<T>(run: () => T): T;
  runJob<T>(name: string, jobId: string, carrier: Record<string, string> | undefined, run: () => Promise<T>): Promise<T>;
}

export const traceHooks: { current: TraceHooks | null } = { current: null };

/** The key under which a job's data carries the trace that queued it. */
export const JOB_TRACE_KEY = '_trace';
