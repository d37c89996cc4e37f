import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BotCheck, SANDBOX_BOT_CHECK_TOKEN } from './bot-check';

afterEach(cleanup);

describe('BotCheck in sandbox mode', () => {
  it('is a labelled checkbox that hands out the sandbox token, and takes it back when unticked', () => {
    const tokens: (string | null)[] = [];
    render(<BotCheck onToken={(t) => tokens.push(t)} />);
    const box = screen.getByRole('checkbox', { name: "I'm not a robot" });
    expect(screen.getByText(/Sandbox bot check/)).toBeTruthy();

    fireEvent.click(box);
    fireEvent.click(box);
    expect(tokens).toEqual([SANDBOX_BOT_CHECK_TOKEN, null]);
    expect(SANDBOX_BOT_CHECK_TOKEN).not.toBe('sandbox-fail');
  });

  it('starts unticked again when reset', () => {
    const { rerender } = render(<BotCheck onToken={() => undefined} resetKey={0} />);
    fireEvent.click(screen.getByRole('checkbox'));
    rerender(<BotCheck onToken={() => undefined} resetKey={1} />);
    expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
  });
});
