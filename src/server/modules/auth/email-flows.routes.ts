import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '#shared/schemas/common.js';
import {
  changeEmailBodySchema,
  changeEmailResponseSchema,
  confirmEmailChangeBodySchema,
  confirmEmailChangeResponseSchema,
  forgotPasswordBodySchema,
  resetPasswordBodySchema,
  successResponseSchema,
  verifyEmailBodySchema,
  verifyEmailResponseSchema,
} from '#shared/schemas/mail.js';
import type { AppContext } from '#server/context.js';
import type { EmailFlows } from './email-flows.service.js';

/** A reset request answers no sooner than this, whatever happened, so its timing says nothing. */
const FORGOT_MIN_MS = 150;

/** The mailbox flows of decision 0130 under /api: verification, password reset, change of address. */
export function registerEmailFlowRoutes(app: FastifyInstance, _ctx: AppContext, flows: EmailFlows): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const security = [{ bearer: [] }];
  const info = (request: { ip: string; headers: Record<string, unknown> }) => {
    const ua = request.headers['user-agent'];
    return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : undefined };
  };

  api.post(
    '/auth/verify-email',
    {
      schema: {
        tags,
        summary: 'Confirm the email address with the link from the mail',
        body: verifyEmailBodySchema,
        response: { 200: verifyEmailResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await flows.verifyEmail(request.body.token, request.ip);
      return { success: true as const, message: 'Your email address is confirmed.', emailVerified: true as const };
    },
  );

  api.post(
    '/auth/resend-verification',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Send the confirmation link again', security, response: { 202: successResponseSchema, ...errorResponses } },
    },
    async (request, reply) => {
      await flows.resendVerification(request.auth!.userId!);
      return reply.status(202).send({ success: true as const, message: 'We sent a new confirmation link. Check your inbox.' });
    },
  );

  api.post(
    '/auth/forgot-password',
    {
      schema: {
        tags,
        summary: 'Ask for a password reset link (the same answer whether or not the address is registered)',
        body: forgotPasswordBodySchema,
        response: { 202: successResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const started = Date.now();
      await flows.forgotPassword(request.body.email, request.ip);
      const wait = FORGOT_MIN_MS - (Date.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return reply.status(202).send({
        success: true as const,
        message: 'If an account uses this address, we sent it a link to reset the password. Check your inbox.',
      });
    },
  );

  api.post(
    '/auth/reset-password',
    {
      schema: {
        tags,
        summary: 'Set a new password with the link from the mail (ends every session)',
        body: resetPasswordBodySchema,
        response: { 200: successResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await flows.resetPassword(request.body.token, request.body.password, info(request), { removePasskeys: request.body.removePasskeys });
      return { success: true as const, message: 'Your password was changed. Log in with your new password.' };
    },
  );

  api.put(
    '/users/email',
    {
      config: { auth: 'user', stepUp: true },
      schema: {
        tags: ['users'],
        summary: 'Change the email address: a link goes to the new address, a notice to the old one',
        security,
        body: changeEmailBodySchema,
        response: { 202: changeEmailResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const pendingEmail = await flows.requestEmailChange(request.auth!.userId!, request.body.email, request.body.currentPassword);
      return reply.status(202).send({
        success: true as const,
        message: `We sent a confirmation link to ${pendingEmail}. Your address changes when you open it.`,
        pendingEmail,
      });
    },
  );

  api.post(
    '/auth/confirm-email-change',
    {
      schema: {
        tags,
        summary: 'Make the address change with the link sent to the new address',
        body: confirmEmailChangeBodySchema,
        response: { 200: confirmEmailChangeResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const email = await flows.confirmEmailChange(request.body.token, request.ip);
      return { success: true as const, message: `Your email address is now ${email}.`, email };
    },
  );
}
