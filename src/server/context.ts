import type { Config } from './config.js';
import type { Database, Tx } from './db/client.js';
import type { InvalidationBus } from './db/invalidation.js';
import type { DomainEvents } from './events/domain-events.js';
import type { JobQueue } from './jobs/job-queue.js';
import type { RateLimiter } from './modules/rate-limit/rate-limit.service.js';

/** Moves what a guest made (tickets, exchanges, ...) to the account that signs in with that guestId. */
export type GuestLinker = (tx: Tx, guestId: string, userId: string) => Promise<void>;

/** What route modules receive: configuration and shared services, passed explicitly (no globals). */
export interface AppContext {
  config: Config;
  database: Database;
  rateLimiter: RateLimiter;
  /** Each module that keeps guest data adds how to move it to an account. */
  guestLinkers: GuestLinker[];
  /** This server's own base URL as it listens, for clients of the mounted sandboxes. */
  selfUrl: () => string;
  isMigrated: () => boolean;
  /** True once the process was told to stop: /readyz then answers 503 while requests are still served. */
  isStopping: () => boolean;
  /** The background job queue (started when the app is ready, stopped before it closes). */
  jobs: JobQueue;
  /** Where modules report what happened, inside the transaction of the change (decision 0322). */
  events: DomainEvents;
  /** Row changes heard from the database (any instance), for long-lived per-instance caches (decision 0170). */
  invalidation: InvalidationBus;
}
