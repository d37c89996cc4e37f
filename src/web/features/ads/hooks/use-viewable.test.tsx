import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AD_VIEWABLE_MS } from '#shared/ad-rules';
import { useViewable } from './use-viewable';

/** jsdom has no layout: this stands in for the browser's IntersectionObserver, driven by the test. */
class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly targets: Element[] = [];
  disconnected = false;
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  unobserve() {}
  disconnect() {
    this.disconnected = true;
  }
  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }
  /** The share of the element now on screen. */
  show(ratio: number) {
    const entries = this.targets.map(
      (target) => ({ target, intersectionRatio: ratio, isIntersecting: ratio > 0 }) as IntersectionObserverEntry,
    );
    this.callback(entries, this as unknown as IntersectionObserver);
  }
}

const observer = () => FakeIntersectionObserver.instances.at(-1)!;
let visibility: DocumentVisibilityState = 'visible';

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeIntersectionObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function watch(enabled = true) {
  const element = document.createElement('section');
  const onViewable = vi.fn();
  const hook = renderHook(({ on }) => useViewable(element, onViewable, on), { initialProps: { on: enabled } });
  return { element, onViewable, hook };
}

describe('useViewable (at least half on screen for one continuous second)', () => {
  it('fires once when half of the element has been visible for one second', () => {
    const { element, onViewable } = watch();
    expect(observer().targets).toEqual([element]);
    expect(observer().options.threshold).toContain(0.5);

    act(() => observer().show(0.5));
    act(() => vi.advanceTimersByTime(AD_VIEWABLE_MS - 1));
    expect(onViewable).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onViewable).toHaveBeenCalledTimes(1);

    // Done for good: staying, leaving and coming back add nothing.
    expect(observer().disconnected).toBe(true);
    act(() => observer().show(0));
    act(() => observer().show(1));
    act(() => vi.advanceTimersByTime(5 * AD_VIEWABLE_MS));
    expect(onViewable).toHaveBeenCalledTimes(1);
  });

  it('does not fire for an element scrolled past quickly, and a return starts a new full second', () => {
    const { onViewable } = watch();
    act(() => observer().show(1));
    act(() => vi.advanceTimersByTime(AD_VIEWABLE_MS * 0.6));
    act(() => observer().show(0));
    act(() => vi.advanceTimersByTime(5 * AD_VIEWABLE_MS));
    expect(onViewable).not.toHaveBeenCalled();

    act(() => observer().show(0.8));
    act(() => vi.advanceTimersByTime(AD_VIEWABLE_MS * 0.6));
    expect(onViewable).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(AD_VIEWABLE_MS * 0.4));
    expect(onViewable).toHaveBeenCalledTimes(1);
  });

  it('does not count less than half, or dropping below half before the second is up', () => {
    const { onViewable } = watch();
    act(() => observer().show(0.49));
    act(() => vi.advanceTimersByTime(5 * AD_VIEWABLE_MS));
    expect(onViewable).not.toHaveBeenCalled();

    act(() => observer().show(0.6));
    act(() => vi.advanceTimersByTime(AD_VIEWABLE_MS / 2));
    act(() => observer().show(0.3));
    act(() => vi.advanceTimersByTime(5 * AD_VIEWABLE_MS));
    expect(onViewable).not.toHaveBeenCalled();
  });

  it('does not count while the tab is hidden, and counts a full second after it is shown again', () => {
    const { onViewable } = watch();
    act(() => observer().show(1));
    act(() => vi.advanceTimersByTime(AD_VIEWABLE_MS / 2));
    act(() => setVisibility('hidden'));
    act(() => vi.advanceTimersByTime(5 * AD_VIEWABLE_MS));
    expect(onViewable).not.toHaveBeenCalled();

    act(() => setVisibility('visible'));
    act(() => vi.advanceTimersByTime(AD_VIEWABLE_MS - 1));
    expect(onViewable).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onViewable).toHaveBeenCalledTimes(1);
  });

  it('watches nothing until enabled, and stops the timer when unmounted', () => {
    const { onViewable, hook } = watch(false);
    expect(FakeIntersectionObserver.instances).toHaveLength(0);
    hook.rerender({ on: true });
    act(() => observer().show(1));
    hook.unmount();
    expect(observer().disconnected).toBe(true);
    act(() => vi.advanceTimersByTime(5 * AD_VIEWABLE_MS));
    expect(onViewable).not.toHaveBeenCalled();
  });
});
