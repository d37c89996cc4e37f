import { configure } from '@testing-library/react';

// CI runs the server and web projects side by side on two cores; under that load a promise chain
// (fetch → store → toast) can take longer than Testing Library's default 1 s to reach the screen.
// A longer wait does not hide a missing element: findBy/waitFor still fail, only later.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no matchMedia; the toast library and the ads ask it (reduced motion). A test that needs a
// particular answer assigns its own.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
})) as typeof window.matchMedia;
