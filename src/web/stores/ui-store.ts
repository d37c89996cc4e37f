/**
 * UI state shared across features (docs/product.md#browser-state, "UI state"; docs/product.md#ui): which view is active,
 * whether the sign-in form is in login or register mode and the two modals. The browser's ticket list is
 * the tickets feature's query cache (docs/decisions/0225): server data never lives in a store.
 */
import { create } from 'zustand';

export interface UiState {
  activeView: string;
  isLogin: boolean;
  isCreatingTicketModal: boolean;
  isCreatingLoginModal: boolean;
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
  reset(): void;
}

export const initialUiState: UiState = {
  activeView: 'ticketList',
  isLogin: true,
  isCreatingTicketModal: false,
  isCreatingLoginModal: false,
};

export const useUiStore = create<UiState & UiActions>()((set) => ({
  ...initialUiState,
  setActiveView: (activeView) => set({ activeView }),
  setIsLogin: (isLogin) => set({ isLogin }),
  toggleLoginForm: () => set((state) => ({ isLogin: !state.isLogin })),
  openLoginModal: () => set({ isCreatingLoginModal: true, isLogin: true }),
  closeLoginModal: () => set({ isCreatingLoginModal: false }),
  setCreatingTicketModal: (isCreatingTicketModal) => set({ isCreatingTicketModal }),
  reset: () => set({ ...initialUiState }),
}));
