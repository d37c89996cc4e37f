const runs = new Map<string, Promise<unknown>>();

/**
 * Starts `work` once per key for the life of the page and hands every caller the same promise.
 * OAuth codes and Telegram payloads are single use, and React StrictMode runs effects twice in
 * development: the second run must join the first, not send the code again.
 */
export function runOnce<T>(key: string, work: () => Promise<T>): Promise<T> {
  let run = runs.get(key) as Promise<T> | undefined;
  if (!run) {
    run = work();
    runs.set(key, run);
  }
  return run;
}
