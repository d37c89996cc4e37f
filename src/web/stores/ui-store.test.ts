import { beforeEach, describe, expect, it } from 'vitest';
import { useUiStore } from './ui-store';

const ui = () => useUiStore.getState();

describe('UI store', () => {
  beforeEach(() => ui().reset());

  it('starts on the ticket list, in login mode, with no modal open', () => {
    expect(ui()).toMatchObject({
      activeView: 'ticketList',
      isLogin: true,
      isCreatingTicketModal: false,
      isCreatingLoginModal: false,
    });
  });

  it('switches the active view', () => {
    ui().setActiveView('ticketDetail');
    expect(ui().activeView).toBe('ticketDetail');
  });

  it('toggles the login/register form back and forth', () => {
    ui().toggleLoginForm();
    expect(ui().isLogin).toBe(false);
    ui().toggleLoginForm();
    expect(ui().isLogin).toBe(true);
  });

  it('opening the login modal forces login mode', () => {
    ui().setIsLogin(false);
    ui().openLoginModal();
    expect(ui().isCreatingLoginModal).toBe(true);
    expect(ui().isLogin).toBe(true);
    ui().closeLoginModal();
    expect(ui().isCreatingLoginModal).toBe(false);
  });

  it('opens and closes the ticket-creation modal', () => {
    ui().setCreatingTicketModal(true);
    expect(ui().isCreatingTicketModal).toBe(true);
    ui().setCreatingTicketModal(false);
    expect(ui().isCreatingTicketModal).toBe(false);
  });
});
