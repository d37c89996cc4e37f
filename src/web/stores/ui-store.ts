/**
 * UI state shared across features (docs/product.md#browser-state, "UI state"; docs/product.md#ui): which view is active,
 * whether the sign-in form is in login or register mode, the two modals, and the browser's ticket list.
 */
import { create } from 'zustand';

/** The ticket list only relies on `_id`; the tickets feature owns the rest of a ticket's shape. */
export interface TicketLike {
  _id: string;
}

export interface UiState<T extends TicketLike = TicketLike> {
  activeView: string;
  isLogin: boolean;
  isCreatingTicketModal: boolean;
  isCreatingLoginModal: boolean;
  tickets: T[];
}

export interface UiActions {
  setActiveView(view: string): void;
  setIsLogin(isLogin: boolean): void;
  /** Switches the login/register form to the other mode. */
  toggleLoginForm(): void;
  /** Opens the login modal, always in login mode. */
  openLoginModal(): void;
  closeLoginModal(): void;
  setCreatingTicketModal(open: boolean): void;
  /** A ticket with a known `_id` is merged into the existing one; a new one goes to the front. */
  addTicket(ticket: TicketLike): void;
  /** Replaces the list, keeping the first occurrence of each `_id`. */
  setTickets(tickets: TicketLike[]): void;
  reset(): void;
}

export const initialUiState: UiState = {
  activeView: 'ticketList',
  isLogin: true,
  isCreatingTicketModal: false,
  isCreatingLoginModal: false,
  tickets: [],
};

/** Pure rule behind addTicket, exported for reuse by the tickets feature. */
export function mergeTicket<T extends TicketLike>(tickets: readonly T[], ticket: T): T[] {
  const index = tickets.findIndex((t) => t._id === ticket._id);
  if (index === -1) return [ticket, ...tickets];
  const next = tickets.slice();
  next[index] = { ...tickets[index], ...ticket };
  return next;
}

export function dedupeTickets<T extends TicketLike>(tickets: readonly T[]): T[] {
  const seen = new Set<string>();
  return tickets.filter((t) => (seen.has(t._id) ? false : (seen.add(t._id), true)));
}

export const useUiStore = create<UiState & UiActions>()((set) => ({
  ...initialUiState,
  setActiveView: (activeView) => set({ activeView }),
  setIsLogin: (isLogin) => set({ isLogin }),
  toggleLoginForm: () => set((state) => ({ isLogin: !state.isLogin })),
  openLoginModal: () => set({ isCreatingLoginModal: true, isLogin: true }),
  closeLoginModal: () => set({ isCreatingLoginModal: false }),
  setCreatingTicketModal: (isCreatingTicketModal) => set({ isCreatingTicketModal }),
  addTicket: (ticket) => set((state) => ({ tickets: mergeTicket(state.tickets, ticket) })),
  setTickets: (tickets) => set({ tickets: dedupeTickets(tickets) }),
  reset: () => set({ ...initialUiState }),
}));
