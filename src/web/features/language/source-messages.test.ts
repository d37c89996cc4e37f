import { compileMessage } from '@lingui/message-utils/compileMessage';
import { i18n } from '@lingui/core';
import { plural, t } from '@lingui/core/macro';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLocale } from './locale';

// English has no catalogue at run time: the build leaves each message's English text in the code,
// compiled (decision 0329). Placeholders and plurals must still work, with no warning.
describe('English from the code', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    i18n.setMessagesCompiler(compileMessage);
  });

  it('renders placeholders and plurals with no catalogue loaded and no "uncompiled message" warning', async () => {
    await activateLocale('en');
    // As in production, where Lingui's runtime has no message compiler (tests run with the development one).
    i18n.setMessagesCompiler(undefined as never);
    const warn = vi.spyOn(console, 'warn');
    const name = 'Ada';
    const tickets = (count: number) => plural(count, { one: '# open ticket', other: '# open tickets' });
    expect(t`Hello, ${name}.`).toBe('Hello, Ada.');
    expect(tickets(1)).toBe('1 open ticket');
    expect(tickets(3)).toBe('3 open tickets');
    expect(t`Plain words`).toBe('Plain words');
    expect(Object.keys(i18n.messages)).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });
});
