/** Shown while the first page's code loads (every page is its own lazily loaded chunk). */
export function AppLoading() {
  return (
    <div className="app-loading" role="status">
      Loading Olympus…
    </div>
  );
}
