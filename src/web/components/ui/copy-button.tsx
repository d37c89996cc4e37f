import { t } from '@lingui/core/macro';
import { useEffect, useRef, useState } from 'react';
import { COPIED_FEEDBACK_MS } from '#shared/constants';
import { useUiLocale } from '#web/components/use-ui-locale';

/**
 * The one copy button: copies `value`, and reads Copied! (or Copy failed) for 2 seconds. `label` is its
 * accessible name while idle ("Copy address"); without one the button is simply named Copy.
 */
export function CopyButton({ value, label }: { value: string; label?: string }) {
  useUiLocale();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // Clipboard refused (permissions, insecure context): the value stays selectable on screen.
      setState('failed');
    }
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPIED_FEEDBACK_MS);
  }

  return (
    <button
      type="button"
      className="btn btn-secondary btn-small copy-button"
      onClick={() => void copy()}
      aria-label={state === 'idle' ? label : undefined}
    >
      <span aria-live="polite">{state === 'copied' ? t`Copied!` : state === 'failed' ? t`Copy failed` : t`Copy`}</span>
    </button>
  );
}
