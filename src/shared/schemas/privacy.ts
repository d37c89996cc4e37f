import { z } from 'zod';

// A copy of my data and how long things are kept (docs/product.md#privacy). The browser and the server
// share these shapes; docs/decisions/0250-data-export.md explains the choices.

/** A ready export can be downloaded for this long, then it is deleted. */
export const DATA_EXPORT_TTL_DAYS = 7;
/** One export request per account in this many hours. */
export const DATA_EXPORT_INTERVAL_HOURS = 24;

export const DATA_EXPORT_STATUSES = ['pending', 'ready', 'expired', 'failed'] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

export const dataExportRequestedSchema = z.object({ exportId: z.string() });
export type DataExportRequested = z.infer<typeof dataExportRequestedSchema>;

export const dataExportSchema = z
  .object({
    exportId: z.string(),
    status: z.enum(DATA_EXPORT_STATUSES),
    /** 0-100 while pending; 100 once ready. */
    progress: z.number().int(),
    requestedAt: z.string(),
    readyAt: z.string().nullable(),
    /** When a ready export stops being downloadable. */
    expiresAt: z.string().nullable(),
    sizeBytes: z.number().int().nullable(),
    /** When the next export may be requested. */
    nextRequestAt: z.string(),
  })
  .meta({ id: 'DataExport' });
export type DataExport = z.infer<typeof dataExportSchema>;

/** My most recent export, if any (null: none in the last 7 days), for the Privacy section. */
export const latestDataExportSchema = z.object({ export: dataExportSchema.nullable() });
export type LatestDataExport = z.infer<typeof latestDataExportSchema>;

/** How long each kind of data is kept, as the Privacy section shows it (README "How long we keep things" has the full table). */
export interface RetentionRule {
  what: string;
  kept: string;
}

export const RETENTION_RULES: readonly RetentionRule[] = [
  { what: 'Your account, balance and settings', kept: 'While your account is open' },
  { what: 'Ledger entries, payments, exchanges, orders and charges', kept: 'For good: they are financial records' },
  {
    what: 'Guest sessions and guest tickets',
    kept: '30 days after the guest was last active; never while a guest swap is unfinished or its reward can still be claimed',
  },
  { what: 'Sessions', kept: '30 days after they end (signed out or expired)' },
  { what: 'One-time links and sign-in challenges', kept: '1 day after they expire' },
  { what: 'Webhook deliveries', kept: '30 days after they succeeded or failed for good' },
  { what: 'Copies of your data', kept: `${DATA_EXPORT_TTL_DAYS} days after they are ready` },
  { what: 'Request logs', kept: 'Not stored in our database: one line per request, without bodies or headers, goes to the server log' },
  { what: 'Test (sandbox) provider data', kept: '30 days after its last change, never while its payment or swap is open' },
  { what: 'Rate-limit counters', kept: '1 day' },
];
