import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { limitHeapGrowth } from './heap-growth.js';

/** Starts the product: database, migrations, HTTP server; stops gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  limitHeapGrowth();
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let migrated = false;
  await runMigrations(database.pool);
  migrated = true;

  const app = await buildApp({ config, database, isMigrated: () => migrated });
  app.addHook('onClose', async () => {
    await database.close();
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    timer.unref();
    try {
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
