import { ConfigError } from './config.js';

/**
 * Starts the product: database, migrations, HTTP server; stops gracefully on SIGTERM/SIGINT.
 *
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, traces start first (tracing/start.ts), because OpenTelemetry
 * patches `http`, `pg` and `fastify` as they load; so the app is imported only afterwards. Without it
 * nothing of OpenTelemetry is loaded (docs/decisions/0272-traces-only-when-asked.md).
 */
async function main(): Promise<void> {
  const stopTracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? await (await import('./tracing/start.js')).startTracing() : null;
  const [{ buildApp }, { loadConfig }, { openDatabase }, { runMigrations }, { limitHeapGrowth }] = await Promise.all([
    import('./app.js'),
    import('./config.js'),
    import('./db/client.js'),
    import('./db/migrate.js'),
    import('./heap-growth.js'),
  ]);
  limitHeapGrowth();
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    dataDir: config.dataDir,
    timeouts: config.databaseTimeouts,
  });
  let migrated = false;
  await runMigrations(database.session.pool, undefined, {
    // The app's logger exists only once the app is built; this is the one line before it.
    onRetry: (attempt, err) => console.warn(`migrations: attempt ${attempt} lost a race for a table lock (${err.message}); trying again`),
  });
  migrated = true;

  let stopping = false;
  const app = await buildApp({ config, database, isMigrated: () => migrated, isStopping: () => stopping });
  app.addHook('onClose', async () => {
    await database.close();
    // The last spans (the shutdown's own queries) go out before the process ends.
    await stopTracing?.().catch((err: unknown) => app.log.warn({ err }, 'traces not flushed at shutdown'));
  });

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000 + config.shutdownDrainMs);
    timer.unref();
    try {
      if (config.shutdownDrainMs > 0) {
        // Behind a proxy: /readyz fails from now on, and requests are still answered until the proxy's
        // health check has moved traffic away; only then does the listener close (decision 0273).
        app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'draining: /readyz answers 503 before shutting down');
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      }
      app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      await app.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { engine: database.engine, url: config.publicUrl, sandboxes: config.sandboxes },
    `Olympus is running on ${config.publicUrl}`,
  );
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('Olympus failed to start:', err);
  }
  process.exit(1);
});
