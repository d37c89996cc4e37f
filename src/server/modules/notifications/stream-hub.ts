import type { ServerResponse } from 'node:http';
import type { InvalidationBus } from '#server/db/invalidation.js';

/** Heartbeat comment on every open stream, so proxies and the browser keep it open. */
const HEARTBEAT_MS = 20_000;
/** Changes heard within this long are told once. */
const DEBOUNCE_MS = 50;

/**
 * What a `change` event names: the kinds of records whose figures a screen shows. The triggers of the
 * live-changes migration say `live:<topic>:<recipient>` on commit (docs/decisions/0316-one-live-channel.md).
 */
export const LIVE_TOPICS = ['credits', 'payments', 'exchanges', 'orders', 'tickets', 'campaigns'] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];
const isLiveTopic = (topic: string): topic is LiveTopic => (LIVE_TOPICS as readonly string[]).includes(topic);

interface Stream {
  key: string;
  res: ServerResponse;
  count: () => Promise<number>;
  pending: NodeJS.Timeout | null;
  end: NodeJS.Timeout;
  /** The count this stream was last told. */
  last: number;
  /** Whether the unread count may have changed since it was last read. */
  recount: boolean;
  /** The topics changed since the stream was last told. */
  topics: Set<LiveTopic>;
}

/**
 * The open live streams of this instance (docs/decisions/0262, 0316). It listens to the invalidation
 * bus, where triggers say on commit of any change on any instance `n:<recipient>` (a notification) and
 * `live:<topic>:<recipient>` (a record a screen shows), and tells that recipient's streams their new
 * unread count (`unread`) and which topics changed (`change`). When the bus lost its connection, every
 * stream is told that everything changed (what changed meanwhile was not heard).
 */
export class NotificationStreamHub {
  private readonly streams = new Set<Stream>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly detach: Array<() => void>;

  constructor(bus: InvalidationBus) {
    this.detach = [
      bus.onKey((kind, id) => {
        if (kind === 'n') {
          for (const s of this.streams) if (s.key === id) this.schedule(s, { recount: true });
          return;
        }
        if (kind !== 'live') return;
        const colon = id.indexOf(':');
        const topic = id.slice(0, colon);
        const key = id.slice(colon + 1);
        if (colon < 1 || !isLiveTopic(topic)) return;
        for (const s of this.streams) if (s.key === key) this.schedule(s, { topics: [topic] });
      }),
      bus.onReset(() => {
        for (const s of this.streams) this.schedule(s, { recount: true, topics: LIVE_TOPICS });
      }),
    ];
    this.heartbeat = setInterval(() => {
      for (const s of this.streams) s.res.write(': ping\n\n');
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get size(): number {
    return this.streams.size;
  }

  /** Holds `res` open for `key` until the client goes, `timeoutSeconds` pass, or the app closes. */
  async open(
    key: string,
    res: ServerResponse,
    headers: Record<string, string>,
    count: () => Promise<number>,
    timeoutSeconds: number,
  ): Promise<void> {
    let first: number;
    try {
      first = await count();
    } catch {
      // The database went away: no stream; the client polls and tries again.
      res.writeHead(503, { ...headers, 'content-type': 'application/json; charset=utf-8', 'retry-after': '5' });
      res.end(JSON.stringify({ error: 'Service temporarily unavailable', code: 'UNAVAILABLE' }));
      return;
    }
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 3000\n\n`);
    res.write(event(first));
    const stream: Stream = {
      key,
      res,
      count,
      pending: null,
      end: setTimeout(() => this.close(stream), timeoutSeconds * 1000),
      last: first,
      recount: false,
      topics: new Set(),
    };
    stream.end.unref();
    if (timeoutSeconds === 0) {
      this.close(stream);
      return;
    }
    this.streams.add(stream);
    res.on('close', () => this.close(stream));
  }

  private schedule(s: Stream, what: { recount?: boolean; topics?: readonly LiveTopic[] }): void {
    if (what.recount) s.recount = true;
    for (const topic of what.topics ?? []) s.topics.add(topic);
    if (s.pending) return;
    s.pending = setTimeout(() => {
      s.pending = null;
      if (!this.streams.has(s)) return;
      if (s.topics.size > 0) {
        s.res.write(changeEvent([...s.topics]));
        s.topics.clear();
      }
      if (!s.recount) return;
      s.recount = false;
      s.count().then(
        (n) => {
          if (!this.streams.has(s) || n === s.last) return;
          s.last = n;
          s.res.write(event(n));
        },
        () => {},
      );
    }, DEBOUNCE_MS);
    s.pending.unref();
  }

  private close(s: Stream): void {
    clearTimeout(s.end);
    if (s.pending) clearTimeout(s.pending);
    this.streams.delete(s);
    if (!s.res.writableEnded) s.res.end();
  }

  /** Ends every stream (the app is closing); clients connect again to another instance. */
  stop(): void {
    clearInterval(this.heartbeat);
    for (const d of this.detach) d();
    for (const s of [...this.streams]) this.close(s);
  }
}

function event(unreadCount: number): string {
  return `event: unread\ndata: ${JSON.stringify({ unreadCount })}\n\n`;
}

function changeEvent(topics: LiveTopic[]): string {
  return `event: change\ndata: ${JSON.stringify({ topics })}\n\n`;
}
