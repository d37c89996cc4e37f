import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, uuidParamsSchema } from '#shared/schemas/common.js';
import {
  adminReferralListQuerySchema,
  adminReferralListResponseSchema,
  adminReferralResponseSchema,
  referralDecisionBodySchema,
  referralListQuerySchema,
  referralListResponseSchema,
  referralReportQuerySchema,
  referralReportResponseSchema,
  referralSettingsBodySchema,
  referralSettingsResponseSchema,
  referralSummarySchema,
  type ReferralReportWeek,
  type ReferralSettings,
} from '#shared/schemas/referrals.js';
import { STEP_UP_FIELDS } from '#shared/schemas/two-factor.js';
import type { AppContext } from '#server/context.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { adminList, listMine, report, settingsWithHistory, summary } from './referral-reads.js';
import type { ReferralsService } from './referrals.service.js';

/** The columns of the weekly report's CSV, in order (docs/product.md#referrals). */
export const REFERRAL_REPORT_CSV_HEADER = [
  'week_start',
  'referrers',
  'joined',
  'qualified',
  'refused',
  'paid_credits',
  'clawed_back_credits',
  'welcome_bonus_credits',
] as const;

const credits = (cents: number) => (cents / 100).toFixed(2);

/** The weekly report as one CSV table: numbers and ISO dates only, so no cell can read as a formula. */
export function referralReportCsv(weeks: ReferralReportWeek[]): string {
  const lines = [REFERRAL_REPORT_CSV_HEADER.join(',')];
  for (const w of weeks) {
    lines.push(
      [
        w.weekStart,
        w.referrers,
        w.joined,
        w.qualified,
        w.refused,
        credits(w.paidCents),
        credits(w.clawedBackCents),
        credits(w.welcomeBonusCents),
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Mine (`/referrals`), the staff's (`/admin/referrals...`), and the sandbox's release of held rewards. */
export function registerReferralRoutes(app: FastifyInstance, ctx: AppContext, service: ReferralsService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const tags = ['referrals'];
  const staffTags = ['operator console'];
  const security = [{ bearer: [] }];

  const actorOf = async (userId: string) => {
    const actor = await findUserById(ctx.database.db, userId);
    return { id: userId, username: actor?.username ?? 'unknown' };
  };

  api.get(
    '/referrals',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'The people who joined with my referral link (masked names), newest first, with what each earned me',
        security,
        querystring: referralListQuerySchema,
        response: { 200: referralListResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      const { referrals, total } = await listMine(db, requireUserId(request), { page, pageSize });
      return { referrals, page, pageSize, total };
    },
  );

  api.get(
    '/referrals/summary',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My referral code and link, counts by status, credits held, paid and taken back, and the programme settings',
        security,
        response: { 200: referralSummarySchema, ...errorResponses },
      },
    },
    async (request) => summary(db, requireUserId(request)),
  );

  api.get(
    '/admin/referrals',
    {
      config: { auth: 'admin' },
      schema: {
        tags: staffTags,
        summary: 'Referrals with the self-referral signals, filtered by status and a name or email of either person (admin)',
        security,
        querystring: adminReferralListQuerySchema,
        response: { 200: adminReferralListResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      const { referrals, total } = await adminList(db, request.query);
      return { referrals, page, pageSize, total };
    },
  );

  api.post(
    '/admin/referrals/:id/refuse',
    {
      config: { auth: 'admin', audited: true },
      schema: {
        tags: staffTags,
        summary: 'Refuse a referral before it paid its referrer: held rewards are cancelled; the note is shown to the referrer (admin)',
        security,
        params: uuidParamsSchema('Unknown referral'),
        body: referralDecisionBodySchema,
        response: { 200: adminReferralResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      referral: await service.refuse(request.params.id, await actorOf(request.auth!.userId!), request.body.note),
    }),
  );

  api.post(
    '/admin/referrals/:id/reverse',
    {
      // Takes credits back from balances: the admin's second factor (docs/security.md#staff-powers).
      config: { auth: 'admin', audited: true, stepUp: true },
      schema: {
        tags: staffTags,
        summary:
          'Reverse a referral: held rewards are clawed back, paid ones (and the welcome bonus) taken back on the ledger, owed if spent; the note is shown to the referrer (admin)',
        security,
        params: uuidParamsSchema('Unknown referral'),
        body: referralDecisionBodySchema.extend(STEP_UP_FIELDS),
        response: { 200: adminReferralResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      referral: await service.reverse(request.params.id, await actorOf(request.auth!.userId!), request.body.note),
    }),
  );

  api.get(
    '/admin/referrals/report',
    {
      config: { auth: 'admin' },
      schema: {
        tags: staffTags,
        summary:
          'The programme by ISO week (Monday, UTC), oldest first: referrers, joined, qualified, refused, credits paid, taken back and welcome bonuses (admin)',
        security,
        querystring: referralReportQuerySchema,
        response: { 200: referralReportResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ weeks: await report(db, service.now(), request.query.weeks) }),
  );

  api.get(
    '/admin/referrals/report.csv',
    {
      config: { auth: 'admin' },
      schema: {
        tags: staffTags,
        summary: 'The same weekly report as a CSV table (admin)',
        description: `Columns: ${REFERRAL_REPORT_CSV_HEADER.join(', ')}. Amounts in credits with two decimals.`,
        security,
        querystring: referralReportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const csv = referralReportCsv(await report(db, service.now(), request.query.weeks));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="olympus-referrals-${request.query.weeks}-weeks.csv"`)
        .header('cache-control', 'no-store')
        .serializer((payload: unknown) => String(payload))
        .send(csv);
    },
  );

  api.get(
    '/admin/referrals/settings',
    {
      config: { auth: 'admin' },
      schema: {
        tags: staffTags,
        summary: 'The programme settings now, and their history, newest first (admin)',
        security,
        response: { 200: referralSettingsResponseSchema, ...errorResponses },
      },
    },
    async () => settingsWithHistory(db),
  );

  api.put(
    '/admin/referrals/settings',
    {
      // Changes what the programme pays: the admin's second factor (docs/security.md#staff-powers).
      config: { auth: 'admin', audited: true, stepUp: true },
      schema: {
        tags: staffTags,
        summary: 'Change the programme settings (admin): a new row in their history, in force for what is earned from now on',
        security,
        body: referralSettingsBodySchema.extend(STEP_UP_FIELDS),
        response: { 200: referralSettingsResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const b = request.body;
      const next: ReferralSettings = {
        shareBasisPoints: b.shareBasisPoints,
        rewardDays: b.rewardDays,
        capPerReferredCents: b.capPerReferredCents,
        holdDays: b.holdDays,
        dailyCapCents: b.dailyCapCents,
        lifetimeCapCents: b.lifetimeCapCents,
        welcomeBonusCents: b.welcomeBonusCents,
      };
      return service.changeSettings(next, await actorOf(request.auth!.userId!));
    },
  );
}

/**
 * `POST /api/sandbox/referrals/release-held`: every held reward released now, for the browser tests and
 * people trying the product. Not mounted in production (docs/security.md#sandboxes-in-production).
 */
export function registerReferralSandboxControl(app: FastifyInstance, ctx: AppContext, service: ReferralsService): void {
  if (ctx.config.env === 'production') return;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/sandbox/referrals/release-held',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['sandbox'],
        summary: 'Sandbox only: release every held referral reward now (not in production)',
        security,
        response: { 200: z.object({ released: z.number().int() }), ...errorResponses },
      },
    },
    async () => ({ released: await service.releaseDue({ all: true }) }),
  );
}

const security = [{ bearer: [] }];
