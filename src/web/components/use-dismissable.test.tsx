import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useDismissable } from './use-dismissable';

function Disclosure() {
  const { open, close, panelId, rootProps, buttonProps } = useDismissable();
  return (
    <div {...rootProps}>
      <button {...buttonProps}>Menu</button>
      <div id={panelId} hidden={!open}>
        <button type="button">Inside</button>
        <Link to="/elsewhere" onClick={close}>
          Elsewhere
        </Link>
      </div>
    </div>
  );
}

function renderAt(path = '/') {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <Disclosure />
            <button type="button">Outside</button>
          </>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  const menu = screen.getByRole('button', { name: 'Menu' });
  return { router, menu, panel: () => document.getElementById(menu.getAttribute('aria-controls')!)! };
}

afterEach(cleanup);

describe('a dismissable disclosure', () => {
  it('opens and closes from its button, saying so with aria-expanded', () => {
    const { menu, panel } = renderAt();
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(panel().hidden).toBe(true);
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(panel().hidden).toBe(false);
    fireEvent.click(menu);
    expect(panel().hidden).toBe(true);
  });

  it('closes on Escape and gives focus back to its button', () => {
    const { menu, panel } = renderAt();
    fireEvent.click(menu);
    screen.getByRole('button', { name: 'Inside' }).focus();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(panel().hidden).toBe(true);
    expect(document.activeElement).toBe(menu);
  });

  it('stays open for a pointer inside it and closes for one outside', () => {
    const { menu, panel } = renderAt();
    fireEvent.click(menu);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Inside' }));
    expect(panel().hidden).toBe(false);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Outside' }));
    expect(panel().hidden).toBe(true);
  });

  it('closes when focus leaves it, not when focus moves between its own items', () => {
    const { menu, panel } = renderAt();
    fireEvent.click(menu);
    fireEvent.blur(menu, { relatedTarget: screen.getByRole('button', { name: 'Inside' }) });
    expect(panel().hidden).toBe(false);
    fireEvent.blur(screen.getByRole('button', { name: 'Inside' }), { relatedTarget: screen.getByRole('button', { name: 'Outside' }) });
    expect(panel().hidden).toBe(true);
  });

  it('closes on any change of page, also one it did not make', async () => {
    const { router, menu, panel } = renderAt();
    fireEvent.click(menu);
    await act(() => router.navigate('/somewhere'));
    expect(panel().hidden).toBe(true);
    fireEvent.click(menu);
    await act(() => router.navigate(-1));
    expect(panel().hidden).toBe(true);
  });
});
