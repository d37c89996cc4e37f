import { configure } from '@testing-library/react';

// CI runs the server and web projects side by side on two cores; under that load a promise chain
// (fetch → store → toast) can take longer than Testing Library's default 1 s to reach the screen.
// A longer wait does not hide a missing element: findBy/waitFor still fail, only later.
configure({ asyncUtilTimeout: 5_000 });
