import { beforeEach, describe, expect, it } from 'vitest';
import { useUiStore } from './ui-store';

const ui = () => useUiStore.getState();

describe('UI store', () => {
  beforeEach(() => ui().reset());

  it('starts on the ticket list, in login mode, with no modal open and no tickets', () => {
    expect(ui()).toMatchObject({
      activeView: 'ticketList',
      isLogin: true,
      isCreatingTicketModal: false,
      isCreatingLoginModal: false,
      tickets: [],
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

  it('puts a new ticket at the front', () => {
    ui().addTicket({ _id: 'a' });
    ui().addTicket({ _id: 'b' });
    expect(ui().tickets.map((t) => t._id)).toEqual(['b', 'a']);
  });

  it('merges a ticket with a known _id into the existing one, in place', () => {
    ui().addTicket({ _id: 'a', subject: 'First', status: 'open' } as never);
    ui().addTicket({ _id: 'b' });
    ui().addTicket({ _id: 'a', status: 'resolved' } as never);
    expect(ui().tickets).toEqual([{ _id: 'b' }, { _id: 'a', subject: 'First', status: 'resolved' }]);
  });

  it('replacing the list keeps one ticket per _id', () => {
    ui().setTickets([{ _id: 'a' }, { _id: 'b' }, { _id: 'a' }]);
    expect(ui().tickets.map((t) => t._id)).toEqual(['a', 'b']);
  });
});
