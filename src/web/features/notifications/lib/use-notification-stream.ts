import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { openStream } from '#web/lib/api-client';
import { notificationKeys } from '../api/notification-keys';

const RECONNECT_MS = 3_000;

/**
 * Listens to GET /api/notifications/stream while `enabled`: each `unread` event refreshes the
 * notification lists (the bell's count with them). Answers whether the stream is live; while it is not,
 * the lists poll instead (docs/decisions/0262). Reconnects after the server ends a stream or a failure.
 */
export function useNotificationStream(enabled: boolean): boolean {
  const client = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let stopped = false;
    let lastCount: number | null = null;
    const run = async () => {
      while (!stopped) {
        try {
          const response = await openStream('/api/notifications/stream', controller.signal);
          const reader = response.body!.getReader();
          const decoder = new TextDecoder();
          let buffer = '';
          setLive(true);
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              if (!block.split('\n').includes('event: unread')) continue;
              const data = block.split('\n').find((line) => line.startsWith('data: '));
              const count = data ? (JSON.parse(data.slice(6)) as { unreadCount: number }).unreadCount : null;
              // The first event of a stream says where we are; refetch only when something changed.
              if (lastCount === null || count !== lastCount) void client.invalidateQueries({ queryKey: notificationKeys.all });
              lastCount = count;
            }
          }
        } catch {
          // Refused or cut: poll until the next try.
        }
        setLive(false);
        if (stopped) return;
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
      }
    };
    void run();
    return () => {
      stopped = true;
      controller.abort();
      setLive(false);
    };
  }, [enabled, client]);

  return live;
}
