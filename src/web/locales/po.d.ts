// A PO catalogue imported by the web: the Lingui Vite plugin compiles it to its messages (decision 0326).
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
