import { t } from '@lingui/core/macro';
// The language module activates the catalogue these messages are read from, English first.
import '#web/features/language';

/** A short, human name for a session's device: "Chrome on Windows". Good enough to tell sessions apart. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return t`Unknown device`;
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\/|Opera/.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : null;
  const os = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (browser && os) return t`${browser} on ${os}`;
  return browser ?? os ?? t`Unknown device`;
}
