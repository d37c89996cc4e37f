import { traceHooks } from './hooks.js';

/**
 * OpenTelemetry traces (docs/decisions/0272-traces-only-when-asked.md), started by server.ts before it
 * imports the app, and only when OTEL_EXPORTER_OTLP_ENDPOINT is set: the instrumentations patch `http`,
 * `pg` and `fastify` as they are loaded, so they must be in place first. The exporter follows the
 * standard OTEL_* variables (OTEL_EXPORTER_OTLP_PROTOCOL `http/protobuf` by default or `http/json`;
 * `grpc` is not offered, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER…). Answers a function that flushes and
 * stops it.
 */
export async function startTracing(): Promise<() => Promise<void>> {
  // `http`, `pg` and `fastify` are CommonJS: even imported from the server's ES modules they load through
  // require, where the instrumentations' require hook patches them. No ESM loader hook is needed.
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    exporterModule,
    { HttpInstrumentation },
    { PgInstrumentation },
    { FastifyInstrumentation },
    api,
    { resourceFromAttributes },
    semconv,
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    // Only the trace exporter the settings ask for, and no gRPC: the whole NodeSDK (every exporter for
    // logs, metrics and traces) weighed about 200 MB in the container image (decision 0272).
    otlpProtocol() === 'http/json' ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-fastify'),
    import('@opentelemetry/api'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);

  const probes = new Set(['/healthz', '/readyz', '/metrics']);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [semconv.ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? 'olympus',
    }),
    // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (adding /v1/traces) and OTEL_EXPORTER_OTLP_HEADERS.
    spanProcessors: [new BatchSpanProcessor(new exporterModule.OTLPTraceExporter())],
  });
  // The global provider, W3C trace-context propagation and the async-hooks context manager.
  provider.register();
  const instrumentations = [
    new HttpInstrumentation({
      // Health checks every few seconds from the proxy and the container runtime are noise.
      ignoreIncomingRequestHook: (req) => probes.has((req.url ?? '').split('?')[0] ?? ''),
    }),
    new PgInstrumentation({ requireParentSpan: true }),
    new FastifyInstrumentation(),
  ];
  for (const instrumentation of instrumentations) {
    instrumentation.setTracerProvider(provider);
    instrumentation.enable();
  }

  const tracer = api.trace.getTracer('olympus');
  traceHooks.current = {
    traceId: () => api.trace.getActiveSpan()?.spanContext().traceId,
    inject: () => {
      const carrier: Record<string, string> = {};
      api.propagation.inject(api.context.active(), carrier);
      return carrier;
    },
    detached: (run) => api.context.with(api.ROOT_CONTEXT, run),
    runJob: (name, jobId, carrier, run) => {
      const parent = carrier ? api.propagation.extract(api.ROOT_CONTEXT, carrier) : api.ROOT_CONTEXT;
      return tracer.startActiveSpan(
        `job ${name}`,
        {
          kind: api.SpanKind.CONSUMER,
          attributes: { 'messaging.system': 'pg-boss', 'messaging.destination.name': name, 'messaging.message.id': jobId },
        },
        parent,
        async (span) => {
          try {
            return await run();
          } catch (err) {
            span.recordException(err as Error);
            span.setStatus({ code: api.SpanStatusCode.ERROR });
            throw err;
          } finally {
            span.end();
          }
        },
      );
    },
  };
  return async () => {
    traceHooks.current = null;
    for (const instrumentation of instrumentations) instrumentation.disable();
    await provider.shutdown();
  };
}

/** The OTLP encoding asked for: the traces-specific variable first, then the general one. */
function otlpProtocol(): string {
  return (process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
}
