/** Every route of docs/product.md#routes, in one place for the router, the links and the server's fallback. */
export const paths = {
  home: '/',
  status: '/status',
  privacy: '/privacy',
  terms: '/terms',
  dashboard: '/dashboard',
  settings: '/dashboard/settings',
  patchNotes: '/patch-notes',
  login: '/login',
  register: '/register',
  paymentProcess: '/payment/process',
  paymentComplete: '/payment/complete',
  jobs: '/jobs',
  portfolio: '/portfolio',
  reviews: '/reviews',
  discordCallback: '/discord-callback',
  telegramCallback: '/telegram-callback',
  verifyEmail: '/verify-email',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  confirmEmail: '/confirm-email',
  unsubscribe: '/unsubscribe',
  help: '/help',
  advertise: '/advertise',
  notifications: '/notifications',
} as const;

/** The printable receipt of one ledger entry: a top-up, an order, a charge, a refund. */
export const receiptPath = (ledgerEntryId: string) => `${paths.dashboard}/receipts/${encodeURIComponent(ledgerEntryId)}`;

/** One payment: what was paid, the credits it added, its receipt (docs/decisions/0315). */
export const paymentPath = (paymentId: string) => `${paths.dashboard}/payments/${encodeURIComponent(paymentId)}`;

/** One exchange: its status, deposit address and rewards, for a user or a guest (docs/decisions/0317). */
export const exchangePath = (exchangeId: string) => `${paths.dashboard}/exchanges/${encodeURIComponent(exchangeId)}`;

/**
 * The signed-in dashboard's pages, each with its own address beside the side navigation
 * (docs/decisions/0321-dashboard-shell.md). One exchange and one payment keep their addresses above.
 */
export const dashboardPaths = {
  overview: paths.dashboard,
  wallet: `${paths.dashboard}/wallet`,
  exchanges: `${paths.dashboard}/exchanges`,
  shop: `${paths.dashboard}/shop`,
  advertise: `${paths.dashboard}/advertise`,
  referrals: `${paths.dashboard}/referrals`,
  support: `${paths.dashboard}/support`,
  settings: paths.settings,
} as const;

/** One of my campaigns, its report open (docs/decisions/0321-dashboard-shell.md). */
export const campaignReportPath = (campaignId: string) => `${dashboardPaths.advertise}/campaigns/${encodeURIComponent(campaignId)}`;

/** Settings, one section per address (docs/decisions/0320-settings-in-sections.md). */
export const SETTINGS_SECTIONS = ['account', 'security', 'notifications', 'connections', 'developers', 'privacy'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];
export const settingsPath = (section: SettingsSection) => `${paths.settings}/${section}`;

/** The requester's support page, and one ticket on it (docs/decisions/0313). */
export const supportPath = `${paths.dashboard}/support`;
export const ticketPath = (ticketId: string) => `${supportPath}/${encodeURIComponent(ticketId)}`;

/** The staff console's sections, each with its own URL under /dashboard/staff (docs/decisions/0236). */
export const STAFF_SECTIONS = [
  'users',
  'tickets',
  'help',
  'sla',
  'reports',
  'payments',
  'exchanges',
  'catalogue',
  'ads',
  'ad-review',
  'ad-campaigns',
  'incidents',
  'audit',
  'mail',
  'api-keys',
  'closures',
  'automation',
  'referrals',
] as const;
export type StaffSection = (typeof STAFF_SECTIONS)[number];

/**
 * The staff console lives inside the /dashboard/* route, so every link below can be shared and
 * reloaded without a route of its own (and no path outside the route table answers anything but 404).
 */
export const staffPaths = {
  overview: `${paths.dashboard}/staff`,
  section: (section: StaffSection) => `${paths.dashboard}/staff/${section}`,
  user: (id: string) => `${paths.dashboard}/staff/users/${encodeURIComponent(id)}`,
  tickets: `${paths.dashboard}/staff/tickets`,
  ticket: (id: string) => `${paths.dashboard}/staff/tickets/${encodeURIComponent(id)}`,
} as const;

/** Routes with a `/*` tail accept any sub-path. */
const WILDCARD_ROUTES = ['/status', '/privacy', '/terms', '/dashboard', '/help'];
const EXACT_ROUTES = new Set<string>(Object.values(paths));

/** True when the single-page app has a page for this path (anything else is a 404). */
export function isAppRoute(pathname: string): boolean {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (EXACT_ROUTES.has(clean)) return true;
  return WILDCARD_ROUTES.some((base) => clean === base || clean.startsWith(`${base}/`));
}
