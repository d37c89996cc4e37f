import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Dialog } from './dialog';

beforeAll(() => {
  // jsdom has no modal dialogs: open and close just toggle the attribute, as a browser would.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});
afterEach(cleanup);

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open it</button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="t" className="extra">
        <h2 id="t">A question</h2>
        <button onClick={() => setOpen(false)}>Done</button>
      </Dialog>
      <p>{open ? 'shown' : 'hidden'}</p>
    </>
  );
}

describe('Dialog', () => {
  it('opens as a modal, is named by its title, and gives focus back to its opener when it closes', () => {
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open it' });
    opener.focus();
    act(() => fireEvent.click(opener));
    const dialog = screen.getByRole('dialog', { name: 'A question' }) as HTMLDialogElement;
    expect(dialog.open).toBe(true);
    expect(dialog.className).toBe('modal extra');
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Done' })));
    expect(screen.getByText('hidden')).toBeTruthy();
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('closing from the dialog itself (Escape, method="dialog") tells its owner', () => {
    render(<Harness />);
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Open it' })));
    const dialog = screen.getByRole('dialog', { name: 'A question' }) as HTMLDialogElement;
    act(() => dialog.close());
    expect(screen.getByText('hidden')).toBeTruthy();
  });
});
