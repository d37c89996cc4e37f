import { useEffect, useRef, useState } from 'react';
import { COPIED_FEEDBACK_MS } from '#shared/constants';

/** Copies `value`; the label reads Copied! for 2 seconds (docs/product.md#constants). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setFailed(false);
      setCopied(true);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    } catch {
      // Clipboard refused (permissions, insecure context): the value stays selectable on screen.
      setFailed(true);
    }
  };

  return (
    <button type="button" className="btn btn-secondary btn-small copy-button" onClick={() => void copy()}>
      <span aria-live="polite">{copied ? 'Copied!' : failed ? 'Copy failed' : 'Copy'}</span>
      <span className="visually-hidden"> {label}</span>
    </button>
  );
}
