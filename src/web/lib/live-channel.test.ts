import { partialMatchKey, QueryClient, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type * as ApiClient from '#web/lib/api-client';
import { myCampaignsQueryOptions } from '#web/features/ads/api/get-campaigns';
import { sessionKeys } from '#web/features/auth/api/session-keys';
import { catalogueKeys } from '#web/features/catalogue/api/catalogue-keys';
import { exchangeKeys } from '#web/features/exchange/api/exchange-keys';
import { notificationKeys } from '#web/features/notifications/api/notification-keys';
import { paymentKeys } from '#web/features/payments/api/payment-keys';
import { ticketKeys } from '#web/features/tickets/api/ticket-keys';
import {
  announceLocalChange,
  applyLiveChange,
  LIVE_TOPIC_QUERIES,
  LIVE_TOPICS,
  parseLiveEvent,
  useLiveChannel,
  type LiveTopic,
} from './live-channel';

// The scripted API server answers each request with one JSON body and ends it, so it cannot hold a
// server-sent events stream open and write to it later. The stream tests serve `openStream` themselves
// (`serveStreams`); everything else in the API client stays real.
const streamStub = vi.hoisted(() => ({ serve: null as null | ((path: string, signal: AbortSignal) => Promise<Response>) }));
vi.mock('#web/lib/api-client', async (importOriginal) => {
  const real = await importOriginal<typeof ApiClient>();
  return { ...real, openStream: (path: string, signal: AbortSignal) => (streamStub.serve ?? real.openStream)(path, signal) };
});

// ---- Helpers ----------------------------------------------------------------------------------------

/** One stream the hook opened: the test writes events to it and ends it. */
interface OpenedStream {
  path: string;
  signal: AbortSignal;
  send(text: string): void;
  end(): void;
}

/** Serves every `openStream` with a stream the test controls; answers the list of those opened. */
function serveStreams(): OpenedStream[] {
  const opened: OpenedStream[] = [];
  const encoder = new TextEncoder();
  streamStub.serve = (path, signal) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    signal.addEventListener('abort', () => {
      try {
        controller.error(signal.reason);
      } catch {
        // Already ended.
      }
    });
    opened.push({ path, signal, send: (text) => controller.enqueue(encoder.encode(text)), end: () => controller.close() });
    return Promise.resolve(new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }));
  };
  onTestFinished(() => void (streamStub.serve = null));
  return opened;
}

const unread = (count: number) => `event: unread\ndata: {"unreadCount":${count}}\n\n`;
const change = (...topics: string[]) => `event: change\ndata: ${JSON.stringify({ topics })}\n\n`;
const openStreams = (opened: OpenedStream[]) => opened.filter((s) => !s.signal.aborted);

/** A BroadcastChannel as browsers have it: same-name instances deliver to each other, later, never to themselves. */
class FakeBroadcastChannel extends EventTarget {
  static open = new Set<FakeBroadcastChannel>();
  private closed = false;
  constructor(readonly name: string) {
    super();
    FakeBroadcastChannel.open.add(this);
  }
  postMessage(data: unknown): void {
    if (this.closed) throw new DOMException('The channel is closed', 'InvalidStateError');
    const copy: unknown = structuredClone(data);
    for (const other of FakeBroadcastChannel.open) {
      if (other === this || other.name !== this.name) continue;
      setTimeout(() => {
        if (!other.closed) other.dispatchEvent(new MessageEvent('message', { data: copy }));
      }, 0);
    }
  }
  close(): void {
    this.closed = true;
    FakeBroadcastChannel.open.delete(this);
  }
}

/** navigator.locks for exclusive locks: one holder per name, the others queued in order, a queued request abortable. */
class FakeLockManager {
  readonly held = new Set<string>();
  private readonly queues = new Map<string, (() => void)[]>();

  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const { signal } = options;
      if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
      const queue = this.queues.get(name) ?? [];
      this.queues.set(name, queue);
      const onAbort = () => {
        const at = queue.indexOf(grant);
        if (at < 0) return;
        queue.splice(at, 1);
        reject(new DOMException('Aborted', 'AbortError'));
      };
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        this.held.add(name);
        void Promise.resolve()
          .then(callback)
          .then(resolve, reject)
          .finally(() => {
            this.held.delete(name);
            this.next(name);
          });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(grant);
      this.next(name);
    });
  }

  private next(name: string): void {
    if (!this.held.has(name)) this.queues.get(name)?.shift()?.();
  }
}

/** Tabs that can talk: the fakes above in place of the missing browser APIs, for this test only. */
function withTabRelay(): FakeLockManager {
  const locks = new FakeLockManager();
  vi.stubGlobal('BroadcastChannel', FakeBroadcastChannel);
  Object.defineProperty(navigator, 'locks', { value: locks, configurable: true });
  onTestFinished(() => {
    vi.unstubAllGlobals();
    delete (navigator as { locks?: unknown }).locks;
  });
  return locks;
}

/** Old browsers: no BroadcastChannel (Node's own would otherwise show through jsdom) and no locks. */
function withoutTabRelay(): void {
  vi.stubGlobal('BroadcastChannel', undefined);
  onTestFinished(() => void vi.unstubAllGlobals());
}

/** Query keys as the features build them, each cached (and fresh) in every tab. */
const SEEDED: Record<string, QueryKey> = {
  balance: sessionKeys.credits('u1'),
  creditHistory: paymentKeys.ledger(1, 20),
  payments: paymentKeys.mine(1, 20),
  payment: paymentKeys.detail('p1'),
  myExchanges: exchangeKeys.mine('u1'),
  exchange: exchangeKeys.detail('x1'),
  exchangeCurrencies: exchangeKeys.currencies(),
  myOrders: catalogueKeys.myOrders(1),
  catalogue: catalogueKeys.catalogue(),
  myTickets: ticketKeys.mineList(false, 1),
  staffTickets: ticketKeys.staffList({}, 1),
  campaigns: myCampaignsQueryOptions().queryKey,
  notifications: notificationKeys.list('panel'),
  notificationPreferences: notificationKeys.preferences,
};
type Seeded = keyof typeof SEEDED;

function seededClient(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const key of Object.values(SEEDED)) client.setQueryData(key, 'cached');
  return client;
}

/** Which seeded queries are marked for refetch. */
function invalidated(client: QueryClient): Seeded[] {
  return (Object.keys(SEEDED) as Seeded[]).filter((name) => client.getQueryState(SEEDED[name]!)?.isInvalidated === true);
}

/** Fresh again, as after a refetch. */
function refresh(client: QueryClient): void {
  for (const key of Object.values(SEEDED)) client.setQueryData(key, 'cached');
}

/** A tab of the browser: its own query cache, with the hook mounted as the bell mounts it. */
function openTab(owner: string | null) {
  const client = seededClient();
  const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
  const hook = renderHook((props: { owner: string | null }) => useLiveChannel(props.owner), { wrapper, initialProps: { owner } });
  return { client, hook, live: () => hook.result.current };
}

/** Lets queued messages, lock grants and stream reads run (the fakes deliver on the next turns). */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 20)));

afterEach(cleanup);

// ---- The parser -------------------------------------------------------------------------------------

describe('parseLiveEvent', () => {
  it('reads an unread count', () => {
    expect(parseLiveEvent('event: unread\ndata: {"unreadCount":3}')).toEqual({ kind: 'unread', unreadCount: 3 });
    expect(parseLiveEvent('event: unread\r\ndata: {"unreadCount":0}\r')).toEqual({ kind: 'unread', unreadCount: 0 });
  });

  it("reads a change's topics, dropping those this build does not know", () => {
    expect(parseLiveEvent('event: change\ndata: {"topics":["credits","payments"]}')).toEqual({
      kind: 'change',
      topics: ['credits', 'payments'],
    });
    expect(parseLiveEvent('event: change\ndata: {"topics":["rockets","orders","orders"]}')).toEqual({ kind: 'change', topics: ['orders'] });
  });

  it('answers null for a change of unknown topics only, pings, other events and junk', () => {
    expect(parseLiveEvent('event: change\ndata: {"topics":["rockets"]}')).toBeNull();
    expect(parseLiveEvent('event: change\ndata: {"topics":"credits"}')).toBeNull();
    expect(parseLiveEvent(': ping')).toBeNull();
    expect(parseLiveEvent('event: weather\ndata: {"topics":["credits"]}')).toBeNull();
    expect(parseLiveEvent('data: {"unreadCount":3}')).toBeNull();
    expect(parseLiveEvent('event: unread\ndata: {"unreadCount":"3"}')).toBeNull();
    expect(parseLiveEvent('event: unread\ndata: not json')).toBeNull();
    expect(parseLiveEvent('event: unread')).toBeNull();
    expect(parseLiveEvent('')).toBeNull();
  });
});

// ---- Applying a change ------------------------------------------------------------------------------

describe('applyLiveChange', () => {
  it("marks for refetch exactly the queries under the named topics' roots", () => {
    const client = seededClient();
    applyLiveChange(client, ['payments', 'exchanges']);
    expect(invalidated(client).sort()).toEqual(['exchange', 'myExchanges', 'payment', 'payments']);

    refresh(client);
    applyLiveChange(client, ['credits', 'orders', 'tickets', 'campaigns', 'notifications']);
    expect(invalidated(client).sort()).toEqual(['balance', 'campaigns', 'creditHistory', 'myOrders', 'myTickets', 'notifications']);
  });

  it('ignores topics it does not know', () => {
    const client = seededClient();
    applyLiveChange(client, ['rockets', '__proto__', 'constructor']);
    expect(invalidated(client)).toEqual([]);
  });
});

describe('LIVE_TOPIC_QUERIES', () => {
  const covers = (topic: LiveTopic, key: QueryKey) => LIVE_TOPIC_QUERIES[topic].some((root) => partialMatchKey(key, root));

  it("has a root for every topic, and each names the features' own keys", () => {
    expect(Object.keys(LIVE_TOPIC_QUERIES).sort()).toEqual([...LIVE_TOPICS].sort());

    expect(covers('credits', sessionKeys.credits('u'))).toBe(true);
    expect(covers('credits', sessionKeys.allCredits)).toBe(true);
    expect(covers('credits', paymentKeys.ledger(1, 20))).toBe(true);
    expect(covers('credits', paymentKeys.receipt('e1'))).toBe(true);

    expect(covers('payments', paymentKeys.all)).toBe(true);
    expect(covers('payments', paymentKeys.mine(1, 20))).toBe(true);
    expect(covers('payments', paymentKeys.detail('p1'))).toBe(true);
    expect(covers('payments', paymentKeys.status('p1'))).toBe(true);

    expect(covers('exchanges', exchangeKeys.mine('u'))).toBe(true);
    expect(covers('exchanges', exchangeKeys.mine(null))).toBe(true);
    expect(covers('exchanges', exchangeKeys.detail('x1'))).toBe(true);
    expect(covers('exchanges', exchangeKeys.rewardsStatus(1, ['x1']))).toBe(true);
    expect(covers('exchanges', exchangeKeys.currencies())).toBe(false);
    expect(covers('exchanges', exchangeKeys.estimate('BTC', 'credits', 1, 'float'))).toBe(false);

    expect(covers('orders', catalogueKeys.orders())).toBe(true);
    expect(covers('orders', catalogueKeys.myOrders(2))).toBe(true);
    expect(covers('orders', catalogueKeys.catalogue())).toBe(false);

    expect(covers('tickets', ticketKeys.mine(true))).toBe(true);
    expect(covers('tickets', ticketKeys.mineList(false, 1))).toBe(true);
    expect(covers('tickets', ticketKeys.mineDetail(true, 't1'))).toBe(true);
    expect(covers('tickets', ticketKeys.staff())).toBe(false);

    expect(covers('campaigns', myCampaignsQueryOptions().queryKey)).toBe(true);

    expect(covers('notifications', notificationKeys.all)).toBe(true);
    expect(covers('notifications', notificationKeys.list('page'))).toBe(true);
    expect(covers('notifications', notificationKeys.preferences)).toBe(false);
  });
});

// ---- The hook, one tab ------------------------------------------------------------------------------

describe('useLiveChannel in a browser without tab relay', () => {
  beforeEach(withoutTabRelay);

  it('holds no stream without a session', async () => {
    const opened = serveStreams();
    const tab = openTab(null);
    await settle();
    expect(opened).toHaveLength(0);
    expect(tab.live()).toBe(false);
  });

  it('refetches what each event names, the notifications only when the count moved, and reconnects 3 s after an end', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    const opened = serveStreams();
    const tab = openTab('u1');
    await waitFor(() => expect(tab.live()).toBe(true));
    expect(opened.map((s) => s.path)).toEqual(['/api/notifications/stream']);

    // The first count says where we are.
    opened[0]!.send(unread(2));
    await waitFor(() => expect(invalidated(tab.client)).toEqual(['notifications']));
    refresh(tab.client);
    opened[0]!.send(unread(2) + change('credits', 'payments', 'rockets'));
    await waitFor(() => expect(invalidated(tab.client).sort()).toEqual(['balance', 'creditHistory', 'payment', 'payments']));
    refresh(tab.client);

    opened[0]!.end();
    await waitFor(() => expect(tab.live()).toBe(false));
    expect(opened).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    await waitFor(() => expect(tab.live()).toBe(true));
    expect(opened).toHaveLength(2);

    // The same count on the new stream: nothing new to fetch; then a different one.
    opened[1]!.send(unread(2) + change('tickets'));
    await waitFor(() => expect(invalidated(tab.client)).toEqual(['myTickets']));
    opened[1]!.send(unread(5));
    await waitFor(() => expect(invalidated(tab.client).sort()).toEqual(['myTickets', 'notifications']));
  });

  it("closes the stream when the owner changes or the bell goes, and opens the new owner's", async () => {
    const opened = serveStreams();
    const tab = openTab('u1');
    await waitFor(() => expect(tab.live()).toBe(true));
    tab.hook.rerender({ owner: 'gguest-1' });
    await waitFor(() => expect(opened).toHaveLength(2));
    expect(opened[0]!.signal.aborted).toBe(true);
    await waitFor(() => expect(tab.live()).toBe(true));
    tab.hook.unmount();
    expect(opened[1]!.signal.aborted).toBe(true);
  });

  it('each tab holds its own stream', async () => {
    const opened = serveStreams();
    const first = openTab('u1');
    const second = openTab('u1');
    await waitFor(() => expect(first.live() && second.live()).toBe(true));
    expect(opened).toHaveLength(2);
  });
});

// ---- The hook, across tabs --------------------------------------------------------------------------

describe('useLiveChannel across the tabs of one browser', () => {
  it('one tab holds the stream and relays its news; when it closes another takes over', async () => {
    const locks = withTabRelay();
    const opened = serveStreams();
    const leader = openTab('u1');
    await waitFor(() => expect(leader.live()).toBe(true));
    expect(locks.held).toEqual(new Set(['olympus-live:u1']));

    // A tab opened later asks, and hears that the stream is live without opening one.
    const follower = openTab('u1');
    await waitFor(() => expect(follower.live()).toBe(true));
    await settle();
    expect(opened).toHaveLength(1);

    opened[0]!.send(unread(1));
    await waitFor(() => expect(invalidated(follower.client)).toEqual(['notifications']));
    expect(invalidated(leader.client)).toEqual(['notifications']);
    refresh(leader.client);
    refresh(follower.client);

    opened[0]!.send(change('payments', 'orders', 'rockets'));
    await waitFor(() => expect(invalidated(follower.client).sort()).toEqual(['myOrders', 'payment', 'payments']));
    expect(invalidated(leader.client).sort()).toEqual(['myOrders', 'payment', 'payments']);
    refresh(leader.client);
    refresh(follower.client);

    // The stream drops: every tab polls.
    opened[0]!.end();
    await waitFor(() => expect(follower.live()).toBe(false));
    expect(leader.live()).toBe(false);

    // The leading tab closes (while it waits to reconnect): the waiting one gets the lock at once and
    // opens its own stream.
    leader.hook.unmount();
    expect(opened.every((s) => s.signal.aborted)).toBe(true);
    await settle();
    expect(opened).toHaveLength(2);
    await waitFor(() => expect(follower.live()).toBe(true));
    expect(openStreams(opened)).toHaveLength(1);
    opened[1]!.send(change('campaigns'));
    await waitFor(() => expect(invalidated(follower.client)).toEqual(['campaigns']));

    follower.hook.unmount();
    expect(opened[1]!.signal.aborted).toBe(true);
    await waitFor(() => expect(locks.held.size).toBe(0));
  });

  it("keeps two sessions' news apart, and passes on a change a tab announces", async () => {
    withTabRelay();
    const opened = serveStreams();
    const ada = openTab('u1');
    await waitFor(() => expect(ada.live()).toBe(true));
    const adaAgain = openTab('u1');
    const guest = openTab('gguest-1');
    await waitFor(() => expect(opened).toHaveLength(2));
    await waitFor(() => expect(adaAgain.live() && guest.live()).toBe(true));

    opened[0]!.send(change('credits'));
    await waitFor(() => expect(invalidated(adaAgain.client).sort()).toEqual(['balance', 'creditHistory']));
    await settle();
    expect(invalidated(guest.client)).toEqual([]);

    // A mutation in one of Ada's tabs: her other tab refetches, the tab that made it and the guest do not.
    refresh(ada.client);
    refresh(adaAgain.client);
    announceLocalChange('u1', ['tickets']);
    await waitFor(() => expect(invalidated(ada.client).length + invalidated(adaAgain.client).length).toBe(1));
    await settle();
    expect([...invalidated(ada.client), ...invalidated(adaAgain.client)]).toEqual(['myTickets']);
    expect(invalidated(guest.client)).toEqual([]);
  });
});
