/** The Olympus mark: three columns under a pediment, drawn in the current text colour. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path d="M16 3 3 10h26L16 3Z" fill="currentColor" />
      <rect x="6" y="12" width="4" height="12" rx="1" fill="currentColor" opacity="0.85" />
      <rect x="14" y="12" width="4" height="12" rx="1" fill="currentColor" opacity="0.85" />
      <rect x="22" y="12" width="4" height="12" rx="1" fill="currentColor" opacity="0.85" />
      <rect x="3" y="26" width="26" height="3" rx="1" fill="currentColor" />
    </svg>
  );
}
