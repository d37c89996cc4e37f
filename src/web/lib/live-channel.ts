/**
 * One live channel for the whole web app (docs/decisions/0316-one-live-channel.md): the session's
 * server-sent events stream, GET /api/notifications/stream, says what changed and the query cache
 * refetches just that. `event: unread` (`{ unreadCount }`) is topic `notifications`; `event: change`
 * (`{ topics: [...] }`) names the others. One tab of a browser holds the stream for a session and relays
 * what it hears to the others (BroadcastChannel, with a Web Lock to choose the tab), so ten tabs cost the
 * server one stream. Where either is missing every tab holds its own, as before.
 *
 * Shared code: the query-key roots below are written out, not imported from the features
 * (src/web/lib depends on no feature); live-channel.test.ts checks them against the features' keys.
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { openStream } from './api-client';

export const LIVE_TOPICS = ['credits', 'payments', 'exchanges', 'orders', 'tickets', 'campaigns', 'notifications'] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/**
 * The query-key prefixes each topic refetches. One-to-one: a payment that moves the balance comes as
 * both `payments` and `credits`, the server's choice, not this map's.
 */
export const LIVE_TOPIC_QUERIES: Record<LiveTopic, readonly (readonly unknown[])[]> = {
  // The balance, the credit history and its receipts (and the outstanding debt).
  credits: [['credits']],
  payments: [['payments']],
  // Not the currencies, estimates or ranges: those are rates, the same for everyone.
  exchanges: [
    ['exchange', 'mine'],
    ['exchange', 'detail'],
    ['exchange', 'guest-rewards-status'],
  ],
  // The buyer's own orders; the catalogue itself is not theirs.
  orders: [['catalogue', 'orders']],
  // The requester's own tickets; the staff queue keeps its own polling.
  tickets: [['tickets', 'mine']],
  campaigns: [['ad-campaigns']],
  notifications: [['notifications']],
};

export function isLiveTopic(topic: unknown): topic is LiveTopic {
  return typeof topic === 'string' && (LIVE_TOPICS as readonly string[]).includes(topic);
}

/** Refetches what `topics` changed; a topic this build does not know is skipped (a newer server may send it). */
export function applyLiveChange(client: QueryClient, topics: readonly string[]): void {
  for (const topic of new Set(topics)) {
    if (!isLiveTopic(topic)) continue;
    for (const queryKey of LIVE_TOPIC_QUERIES[topic]) void client.invalidateQueries({ queryKey });
  }
}

export type LiveEvent = { kind: 'unread'; unreadCount: number } | { kind: 'change'; topics: LiveTopic[] };

/**
 * Reads one server-sent events block (the text between two blank lines). Answers null for anything
 * else: a `: ping` comment, an event of another name, data that is not the expected JSON, or a change
 * of topics none of which this build knows.
 */
export function parseLiveEvent(block: string): LiveEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const raw of block.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(data.join('\n'));
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null) return null;
  if (event === 'unread') {
    const { unreadCount } = payload as { unreadCount?: unknown };
    return typeof unreadCount === 'number' && Number.isFinite(unreadCount) ? { kind: 'unread', unreadCount } : null;
  }
  if (event === 'change') {
    const { topics } = payload as { topics?: unknown };
    if (!Array.isArray(topics)) return null;
    const known = [...new Set(topics.filter(isLiveTopic))];
    return known.length > 0 ? { kind: 'change', topics: known } : null;
  }
  return null;
}

const STREAM_PATH = '/api/notifications/stream';
const RECONNECT_MS = 3_000;
const CHANNEL_NAME = 'olympus-live';

/** What the tabs of one browser tell each other; `owner` keeps two sessions' news apart. */
type RelayMessage =
  { type: 'change'; owner: string; topics: string[] } | { type: 'live'; owner: string; live: boolean } | { type: 'ask'; owner: string };

function isRelayMessage(data: unknown): data is RelayMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as Record<string, unknown>;
  if (typeof m.owner !== 'string') return false;
  if (m.type === 'change') return Array.isArray(m.topics);
  if (m.type === 'live') return typeof m.live === 'boolean';
  return m.type === 'ask';
}

function locksOf(): LockManager | null {
  return typeof navigator !== 'undefined' && 'locks' in navigator && navigator.locks ? navigator.locks : null;
}

function hasBroadcastChannel(): boolean {
  return typeof BroadcastChannel !== 'undefined';
}

/** This tab's open channels and their owners: a change announced here goes out through one of them. */
const tabChannels = new Map<BroadcastChannel, string>();

/**
 * Tells the other tabs of this browser that `topics` changed for `owner`, e.g. after a mutation made
 * here (this tab invalidates its own queries itself). Does nothing where tabs cannot talk.
 */
export function announceLocalChange(owner: string, topics: readonly string[]): void {
  if (!hasBroadcastChannel()) return;
  const message: RelayMessage = { type: 'change', owner, topics: [...topics] };
  // A channel never hears its own messages, so posting through this tab's own keeps it from refetching twice.
  for (const [channel, of] of tabChannels) {
    if (of === owner) {
      channel.postMessage(message);
      return;
    }
  }
  const channel = new BroadcastChannel(CHANNEL_NAME);
  channel.postMessage(message);
  channel.close();
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Holds the stream open until `signal` aborts, connecting again 3 s after a refusal or an end, and
 * hands each change (already applied to `client`) to `onChange`. Resolves once aborted, promptly: a
 * leader's Web Lock is held until then.
 */
async function runStream(
  client: QueryClient,
  signal: AbortSignal,
  onLive: (live: boolean) => void,
  onChange: (topics: LiveTopic[]) => void,
): Promise<void> {
  let lastCount: number | null = null;
  const heard = (event: LiveEvent) => {
    let topics: LiveTopic[];
    if (event.kind === 'change') {
      topics = event.topics;
    } else {
      // The first count of a stream says where we are; refetch only when it moved.
      topics = lastCount === null || event.unreadCount !== lastCount ? ['notifications'] : [];
      lastCount = event.unreadCount;
    }
    if (topics.length === 0) return;
    applyLiveChange(client, topics);
    onChange(topics);
  };
  while (!signal.aborted) {
    try {
      const response = await openStream(STREAM_PATH, signal);
      const reader = response.body!.getReader();
      const cancel = () => void reader.cancel().catch(() => undefined);
      signal.addEventListener('abort', cancel, { once: true });
      try {
        const decoder = new TextDecoder();
        let buffer = '';
        onLive(true);
        for (;;) {
          const { value, done } = await reader.read();
          if (done || signal.aborted) break;
          buffer += decoder.decode(value, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const event = parseLiveEvent(buffer.slice(0, cut));
            buffer = buffer.slice(cut + 2);
            if (event) heard(event);
          }
        }
      } finally {
        signal.removeEventListener('abort', cancel);
      }
    } catch {
      // Refused or cut: the lists poll until the next try.
    }
    onLive(false);
    if (signal.aborted) return;
    await pause(RECONNECT_MS, signal);
  }
}

/**
 * Keeps the app's queries in step with the server while `owner` (the session: a user id, or `g` and the
 * guest id; null when there is none) is set. Answers whether news is arriving; while it is not, what
 * must stay fresh polls (the bell does, decision 0262).
 *
 * Tabs of one browser share one stream: the tab holding the Web Lock `olympus-live:<owner>` runs it and
 * posts each change and its live state on the `olympus-live` BroadcastChannel; the others apply those
 * changes and report the leader's state, asking for it when they start. When the leader closes or
 * changes owner the lock passes to a tab whose request was waiting.
 */
export function useLiveChannel(owner: string | null): boolean {
  const client = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (owner === null) return;
    const stop = new AbortController();
    // A stopped run may still report on its way out; only the current one may set the state.
    const report = (next: boolean) => {
      if (!stop.signal.aborted) setLive(next);
    };
    const locks = locksOf();

    if (!locks || !hasBroadcastChannel()) {
      void runStream(client, stop.signal, report, () => undefined);
      return () => {
        stop.abort();
        setLive(false);
      };
    }

    const channel = new BroadcastChannel(CHANNEL_NAME);
    tabChannels.set(channel, owner);
    let leading = false;
    let streamLive = false;
    const post = (message: RelayMessage) => {
      if (!stop.signal.aborted) channel.postMessage(message);
    };
    channel.addEventListener('message', (event: MessageEvent) => {
      const message: unknown = event.data;
      if (stop.signal.aborted || !isRelayMessage(message) || message.owner !== owner) return;
      if (message.type === 'change') applyLiveChange(client, message.topics);
      else if (message.type === 'live' && !leading) report(message.live);
      else if (message.type === 'ask' && leading) post({ type: 'live', owner, live: streamLive });
    });
    post({ type: 'ask', owner });

    locks
      .request(`olympus-live:${owner}`, { signal: stop.signal }, async () => {
        leading = true;
        // Until this tab's own stream is up, nothing is arriving (the last leader may have vanished mid-way).
        report(false);
        await runStream(
          client,
          stop.signal,
          (next) => {
            streamLive = next;
            report(next);
            post({ type: 'live', owner, live: next });
          },
          (topics) => post({ type: 'change', owner, topics }),
        );
      })
      // Aborted while waiting in the queue: this tab closed or changed owner before its turn.
      .catch(() => undefined);

    return () => {
      // The followers poll until the next leader's stream is up.
      if (leading) post({ type: 'live', owner, live: false });
      stop.abort();
      tabChannels.delete(channel);
      channel.close();
      setLive(false);
    };
  }, [owner, client]);

  return live;
}
