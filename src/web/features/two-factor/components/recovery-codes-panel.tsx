import { t } from '@lingui/core/macro';
import { useEffect, useId, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useLocale } from '#web/features/language';

/** The recovery codes, shown once: Copy and Download, then Done. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const id = useId();
  useLocale();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState(false);
  const text = `${t`Olympus recovery codes`}\n${t`Each code signs you in once when you cannot use your authenticator app.`}\n\n${codes.join('\n')}\n`;

  useEffect(() => headingRef.current?.focus(), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error(t`Could not copy. Select the codes and copy them yourself.`);
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'olympus-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <div className="recovery-codes" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={headingRef} tabIndex={-1}>
        {t`Save your recovery codes`}
      </h3>
      <p className="muted">
        {t`Each code signs you in once if you lose your phone. They are shown only now: keep them somewhere safe, like a password manager.`}
      </p>
      <ol className="recovery-code-list" aria-label={t`Recovery codes`}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="recovery-code-actions">
        <button type="button" className="btn btn-secondary btn-small" onClick={() => void copy()}>
          {copied ? t`Copied` : t`Copy`}
        </button>
        <button type="button" className="btn btn-secondary btn-small" onClick={download}>
          {t`Download`}
        </button>
        <button type="button" className="btn btn-primary btn-small" onClick={onDone}>
          {t`I have saved them`}
        </button>
      </div>
      <p role="status" aria-live="polite" className="visually-hidden">
        {copied ? t`Recovery codes copied` : ''}
      </p>
    </div>
  );
}
