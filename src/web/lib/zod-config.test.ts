import { describe, expect, it } from 'vitest';

describe('zod configuration', () => {
  it('turns on jitless mode, so zod never probes for eval under the CSP', async () => {
    await import('./zod-config');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
  });
});
