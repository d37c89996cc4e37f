import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import type { SwapClient } from './swap.client.js';

/** What ExchangeService is built with; each of its parts (quotes, creation, provider updates) takes it whole. */
export interface ExchangeServiceDeps {
  db: Db;
  client: SwapClient;
  rewardPercent: number;
  log: FastifyBaseLogger;
  /** Where a finished exchange and a claimed reward are reported. */
  events: DomainEvents;
}

export type UpdateSource = 'poll' | 'read' | 'sandbox';
