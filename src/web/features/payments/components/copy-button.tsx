import { useEffect, useRef, useState } from 'react';
import { COPIED_FEEDBACK_MS } from '#shared/constants';

/** Copies `value`; the label reads Copied! for 2 seconds (docs/product.md#routes, #constants). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPIED_FEEDBACK_MS);
  }

  return (
    <button type="button" className="btn btn-secondary btn-small" onClick={copy} aria-label={state === 'idle' ? label : undefined}>
      <span aria-live="polite">{state === 'copied' ? 'Copied!' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </button>
  );
}
