import type { ServerResponse } from 'node:http';
import type { InvalidationBus } from '#server/db/invalidation.js';

/** Heartbeat comment on every open stream, so proxies and the browser keep it open. */
const HEARTBEAT_MS = 20_000;
/** Changes heard within this long are told once. */
const DEBOUNCE_MS = 50;

interface Stream {
  key: string;
  res: ServerResponse;
  count: () => Promise<number>;
  pending: NodeJS.Timeout | null;
  end: NodeJS.Timeout;
  /** The count this stream was last told. */
  last: number;
}

/**
 * The open notification streams of this instance (docs/decisions/0262). It listens to the invalidation
 * bus, where the notifications trigger says `n:<recipient>` on commit of any change on any instance,
 * and tells that recipient's streams their new unread count. When the bus lost its connection, every
 * stream is told to refetch (what changed meanwhile was not heard).
 */
export class NotificationStreamHub {
  private readonly streams = new Set<Stream>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly detach: Array<() => void>;
  private readonly poll: NodeJS.Timeout | null = null;

  /**
   * `pollMs`: also re-read every stream's count this often and tell it when it changed. The embedded
   * database's in-process listener does not hear notifications raised through its socket connections,
   * so there this keeps the count live; on PostgreSQL it is 0 (NOTIFY is heard).
   */
  constructor(bus: InvalidationBus, pollMs = 0) {
    if (pollMs > 0) {
      this.poll = setInterval(() => {
        for (const s of this.streams) this.schedule(s);
      }, pollMs);
      this.poll.unref();
    }
    this.detach = [
      bus.onKey((kind, id) => {
        if (kind !== 'n') return;
        for (const s of this.streams) if (s.key === id) this.schedule(s);
      }),
      bus.onReset(() => {
        for (const s of this.streams) this.schedule(s);
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
    };
    stream.end.unref();
    if (timeoutSeconds === 0) {
      this.close(stream);
      return;
    }
    this.streams.add(stream);
    res.on('close', () => this.close(stream));
  }

  private schedule(s: Stream): void {
    if (s.pending) return;
    s.pending = setTimeout(() => {
      s.pending = null;
      if (!this.streams.has(s)) return;
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
    if (this.poll) clearInterval(this.poll);
    for (const d of this.detach) d();
    for (const s of [...this.streams]) this.close(s);
  }
}

function event(unreadCount: number): string {
  return `event: unread\ndata: ${JSON.stringify({ unreadCount })}\n\n`;
}
