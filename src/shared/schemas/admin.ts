import { z } from 'zod';
import { ROLES } from '#shared/constants.js';
import { userSchema } from './auth.js';
import { pageShape, paginationQuery, paginationQuerySchema, uuidSchema } from './common.js';
import { STEP_UP_FIELDS } from './two-factor.js';

export const adminUserListQuerySchema = paginationQuerySchema.extend({
  search: z.string().trim().max(100).optional(),
  role: z.enum(ROLES).optional(),
});
export type AdminUserListQuery = z.input<typeof adminUserListQuerySchema>;

export const adminUserSchema = userSchema.extend({
  disabled: z.boolean(),
  lastSeenAt: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserListResponseSchema = z.object({ users: z.array(adminUserSchema), ...pageShape });
export type AdminUserListResponse = z.infer<typeof adminUserListResponseSchema>;

export const adminSessionSchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});

export const adminUserDetailResponseSchema = z.object({
  user: adminUserSchema,
  sessions: z.array(adminSessionSchema),
  counts: z.object({ tickets: z.number().int(), payments: z.number().int(), ledgerEntries: z.number().int() }),
});
export type AdminUserDetailResponse = z.infer<typeof adminUserDetailResponseSchema>;

/** Granting a role is a staff power: the admin's second factor rides along (docs/security.md#staff-powers). */
export const roleChangeBodySchema = z.object({
  role: z.enum(ROLES),
  subroles: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(40)
        .regex(/^[a-z0-9_-]+$/, 'Subroles are lower-case words'),
    )
    .max(20)
    .optional(),
  ...STEP_UP_FIELDS,
});

export const disableBodySchema = z.object({
  disabled: z.boolean(),
  reason: z.string().trim().min(3, 'Give a reason').max(500),
});

export const auditEntrySchema = z
  .object({
    _id: z.string(),
    /** role: the staff member's role now (null when the account is gone). */
    actor: z.object({ _id: z.string().nullable(), username: z.string(), role: z.string().nullable() }),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    /** The target as a person reads it: a user's email, "ticket 1a2b3c4d", "payment 1a2b3c4d"... */
    targetLabel: z.string(),
    /** The entry as one sentence with names (docs/decisions/0234). */
    summary: z.string(),
    /** The fields that changed, formatted (credits with 2 decimals). */
    changes: z.array(z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
    before: z.unknown(),
    after: z.unknown(),
    reason: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListQuerySchema = paginationQuery(50).extend({
  search: z.string().trim().max(100).optional(),
  action: z.string().trim().max(60).optional(),
  targetId: z.string().trim().max(100).optional(),
});
export type AuditListQuery = z.input<typeof auditListQuerySchema>;

export const auditListResponseSchema = z.object({ entries: z.array(auditEntrySchema), ...pageShape });
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

export const overviewQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });

export const overviewDaySchema = z.object({
  day: z.string(),
  signups: z.number().int(),
  deposits: z.number().int(),
  depositedCents: z.number().int(),
  creditsIssuedCents: z.number().int(),
  creditsSpentCents: z.number().int(),
  ticketsOpened: z.number().int(),
  /** Tickets open or pending at the end of the day (UTC): created by then and not resolved or closed by then. */
  openTickets: z.number().int(),
});
export const overviewResponseSchema = z.object({
  days: z.array(overviewDaySchema),
  openTickets: z.number().int(),
  totalUsers: z.number().int(),
});
export type OverviewResponse = z.infer<typeof overviewResponseSchema>;

// Payments and exchanges as staff see them (operator console).
const moneyListQuerySchema = paginationQuerySchema.extend({
  status: z.string().trim().max(30).optional(),
  currency: z.string().trim().toLowerCase().max(20).optional(),
  userId: uuidSchema.optional(),
  /** A username (any case), a user id, or (exchanges) a guest id. */
  user: z.string().trim().max(100).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
export const adminPaymentListQuerySchema = moneyListQuerySchema;
export const adminExchangeListQuerySchema = moneyListQuerySchema;
export type AdminMoneyListQuery = z.input<typeof moneyListQuerySchema>;

export const adminOwnerSchema = z.object({
  userId: z.string().nullable(),
  username: z.string().nullable(),
  guestId: z.string().nullable(),
});

export const paymentEventSchema = z.object({
  _id: z.string(),
  source: z.string(),
  providerStatus: z.string(),
  statusBefore: z.string(),
  statusAfter: z.string(),
  creditedCents: z.number().int(),
  body: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AdminOwner = z.infer<typeof adminOwnerSchema>;
export type PaymentEvent = z.infer<typeof paymentEventSchema>;
