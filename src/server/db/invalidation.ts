import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client.js';

/** The channel the triggers of migration 0018 notify on; payloads are `s:<id>`, `u:<id>` or `p:<id>`. */
export const INVALIDATION_CHANNEL = 'olympus_invalidate';
const RECONNECT_MS = 1000;
/**
 * The listening connection is asked `SELECT 1` this often; one that has not answered within
 * HEARTBEAT_TIMEOUT_MS counts as lost. A connection cut without a FIN (a network partition) raises no
 * event for a long time, and while it looks alive every cache would keep entries long and miss
 * revocations: this bounds that to about a second.
 */
const HEARTBEAT_MS = 250;
const HEARTBEAT_TIMEOUT_MS = 750;

type KeyHandler = (kind: string, id: string) => void;

/**
 * Tells this instance's caches that a row changed, on any instance (docs/decisions/0170). The
 * database's triggers notify on commit; this listens: on PostgreSQL on a dedicated connection, on the
 * embedded database in-process (its one session sees every change).
 *
 * `live` says whether long-lived cache entries are safe: true only while listening. When the listening
 * connection is lost, every cache is told to start over (`onReset`) and keeps entries for the short
 * bound again until listening resumes, when they start over once more (what changed in between was
 * not heard).
 */
export class InvalidationBus {
  private readonly handlers = new Set<KeyHandler>();
  private readonly resetHandlers = new Set<() => void>();
  private client: pg.Client | null = null;
  private unlistenEmbedded: (() => Promise<void>) | null = null;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** When the heartbeat in flight was sent (0: none in flight). */
  private heartbeatSentAt = 0;

  constructor(
    private readonly database: Pick<Database, 'listenEmbedded'> & { session: Pick<Database['session'], 'connectionString'> },
    private readonly log?: FastifyBaseLogger,
  ) {}

  get live(): boolean {
    return this.listening;
  }

  onKey(handler: KeyHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  onReset(handler: () => void): () => void {
    this.resetHandlers.add(handler);
    return () => this.resetHandlers.delete(handler);
  }

  async start(): Promise<void> {
    if (this.database.listenEmbedded) {
      this.unlistenEmbedded = await this.database.listenEmbedded(INVALIDATION_CHANNEL, (payload) => this.deliver(payload));
      this.reset();
      this.listening = true;
      return;
    }
    await this.connect();
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retry) clearTimeout(this.retry);
    this.stopHeartbeat();
    await this.unlistenEmbedded?.().catch(() => {});
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private deliver(payload: string): void {
    for (const key of payload.split(' ')) {
      const colon = key.indexOf(':');
      if (colon < 1) continue;
      const kind = key.slice(0, colon);
      const id = key.slice(colon + 1);
      for (const handler of this.handlers) handler(kind, id);
    }
  }

  private reset(): void {
    for (const handler of this.resetHandlers) handler();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.database.session.connectionString,
      connectionTimeoutMillis: 5000,
      keepAlive: true,
    });
    client.on('notification', (msg) => {
      if (msg.channel === INVALIDATION_CHANNEL && msg.payload) this.deliver(msg.payload);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    } catch {
      this.lost(client);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    // What changed while nobody listened is unknown: every cache starts over, then may keep entries long.
    this.reset();
    this.listening = true;
    this.startHeartbeat(client);
    this.log?.debug('listening for cache invalidations');
  }

  private lost(client: pg.Client): void {
    if (this.client !== null && this.client !== client) return;
    const wasListening = this.listening;
    this.stopHeartbeat();
    this.client = null;
    this.listening = false;
    this.reset();
    client.removeAllListeners('end');
    client.on('error', () => {});
    void client.end().catch(() => {});
    if (wasListening) this.log?.warn('lost the cache invalidation listener; caches keep entries under a second until it is back');
    if (!this.closed && !this.retry) {
      this.retry = setTimeout(() => {
        this.retry = null;
        void this.connect();
      }, RECONNECT_MS);
      this.retry.unref();
    }
  }

  private startHeartbeat(client: pg.Client): void {
    this.stopHeartbeat();
    this.heartbeat = setInterval(() => {
      if (this.heartbeatSentAt !== 0) {
        if (Date.now() - this.heartbeatSentAt > HEARTBEAT_TIMEOUT_MS) this.lost(client);
        return;
      }
      this.heartbeatSentAt = Date.now();
      client.query('SELECT 1').then(
        () => {
          if (this.client === client) this.heartbeatSentAt = 0;
        },
        () => this.lost(client),
      );
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.heartbeatSentAt = 0;
  }
}
