import { Component, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ErrorFallback } from './error-fallback';

interface BoundaryProps {
  children: ReactNode;
  asMain?: boolean;
  /** The page's address: a new one clears a caught error, so the visitor can navigate away from it. */
  resetKey: string;
}

interface BoundaryState {
  error: unknown;
  caughtAt: string | null;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, caughtAt: null };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.error === null) return state.caughtAt === props.resetKey ? null : { caughtAt: props.resetKey };
    // The error belongs to the page it happened on; a different page starts clean.
    return state.caughtAt !== props.resetKey ? { error: null, caughtAt: props.resetKey } : null;
  }

  override render() {
    return this.state.error !== null ? <ErrorFallback error={this.state.error} asMain={this.props.asMain ?? false} /> : this.props.children;
  }
}

/**
 * Catches a page that crashes while rendering or whose lazily loaded code fails to load (React.lazy
 * throws the failed import), and shows the error fallback of docs/product.md#routes in its place.
 */
export function RouteErrorBoundary({ children, asMain }: { children: ReactNode; asMain?: boolean }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname} asMain={asMain ?? false}>
      {children}
    </ErrorBoundary>
  );
}
