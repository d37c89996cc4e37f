import { z } from 'zod';
import { pageShape, paginationQuerySchema } from './common.js';
import { STEP_UP_FIELDS } from './two-factor.js';

// Outbound webhooks (docs/product.md#api: PUT /api/users/webhook-settings; docs/product.md#webhooks). The browser
// and the server share these shapes; docs/decisions/0080-outbound-webhooks.md explains the choices.

/** What a user can subscribe to. */
export const WEBHOOK_EVENTS = [
  'payment.finished',
  'credits.changed',
  'ticket.answered',
  'exchange.finished',
  'order.paid',
  'order.fulfilled',
  'order.refunded',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent only by the Send test button; never subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type WebhookDeliveryEvent = WebhookEvent | typeof WEBHOOK_TEST_EVENT;

export const WEBHOOK_EVENT_LABELS: Record<WebhookDeliveryEvent, string> = {
  'payment.finished': 'Payment finished',
  'credits.changed': 'Credits changed',
  'ticket.answered': 'Ticket answered',
  'exchange.finished': 'Exchange finished',
  'order.paid': 'Order paid',
  'order.fulfilled': 'Order fulfilled',
  'order.refunded': 'Order refunded',
  'webhook.test': 'Test',
};

/**
 * Standard Webhooks headers (https://www.standardwebhooks.com; decision 0180): the message id (the same
 * for every attempt of one message), the Unix time of this attempt and `v1,<base64 HMAC-SHA256>`
 * signatures, space-separated (two during the 24 hours after a secret rotation). The event name rides
 * along for routing; it is also the body's `type`.
 */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
  event: 'x-olympus-event',
} as const;

/** Automatic retries after a failed attempt, in seconds: about a day and a half in all (decision 0180). */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
/** After failing this long without a success in between, the webhook is disabled and its owner told. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 5;
/** After a rotation the previous secret keeps signing for this long. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;

export const WEBHOOK_URL_MAX = 2048;

/**
 * The address deliveries go to: an absolute http(s) URL without credentials or fragment. Whether plain
 * http and private addresses are allowed depends on the server's configuration, so the server checks
 * those (and where the host resolves to) when saving.
 */
export const webhookUrlSchema = z
  .string({ error: 'Enter the URL that should receive webhooks' })
  .trim()
  .min(1, 'Enter the URL that should receive webhooks')
  .max(WEBHOOK_URL_MAX, `Keep the URL under ${WEBHOOK_URL_MAX} characters`)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Enter a full URL, like https://example.com/webhooks' });
      return;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      ctx.addIssue({ code: 'custom', message: 'The URL must start with https://' });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'Leave credentials out of the URL; verify the signature instead' });
    } else if (url.hash) {
      ctx.addIssue({ code: 'custom', message: 'Remove the #fragment from the URL' });
    }
  });

/** PUT /api/users/webhook-settings: the settings object of docs/product.md#api. */
export const webhookSettingsBodySchema = z
  .object({
    url: webhookUrlSchema,
    events: z
      .array(z.enum(WEBHOOK_EVENTS, { error: 'Unknown event' }), { error: 'Choose the events to receive' })
      .max(WEBHOOK_EVENTS.length)
      .refine((events) => new Set(events).size === events.length, 'Each event can be chosen once'),
    enabled: z.boolean({ error: 'enabled must be true or false' }),
    /** A new URL on an account with two-factor on needs the second factor (decision 0205). */
    ...STEP_UP_FIELDS,
  })
  .superRefine((body, ctx) => {
    if (body.enabled && body.events.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['events'], message: 'Choose at least one event, or turn the webhook off' });
    }
  });
export type WebhookSettingsBody = z.infer<typeof webhookSettingsBodySchema>;

/** The saved settings. The secret is shown in full only in the answer that created or rotated it. */
export const webhookSettingsSchema = z
  .object({
    configured: z.boolean(),
    url: z.string().nullable(),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    enabled: z.boolean(),
    /** e.g. `whsec_••••••••3fQa`: enough to tell secrets apart, useless to an onlooker. */
    secretHint: z.string().nullable(),
    /** Present once, right after creation or rotation. */
    secret: z.string().optional(),
    /** Made before Standard Webhooks signatures (base64url text): rotate, or convert it (see the README). */
    legacySecret: z.boolean(),
    /** Until then the previous secret signs too (the 24 hours after a rotation); null otherwise. */
    previousSecretExpiresAt: z.string().nullable(),
    /** Failures turned the webhook off at this time; `enabled` is false until the user turns it on again. */
    disabledAt: z.string().nullable(),
    /** The first failure since the last success (null while deliveries succeed). */
    failingSince: z.string().nullable(),
    updatedAt: z.string().nullable(),
    /** This server also delivers to plain http and to private, loopback and link-local addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS=1). */
    privateTargetsAllowed: z.boolean(),
  })
  .meta({ id: 'WebhookSettings' });
export type WebhookSettings = z.infer<typeof webhookSettingsSchema>;

export const rotateWebhookSecretResponseSchema = z.object({
  secret: z.string(),
  secretHint: z.string(),
  /** The previous secret signs alongside the new one until then. */
  previousSecretExpiresAt: z.string().nullable(),
});
export type RotateWebhookSecretResponse = z.infer<typeof rotateWebhookSecretResponseSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const WEBHOOK_ATTEMPT_TRIGGERS = ['automatic', 'manual'] as const;
export type WebhookAttemptTrigger = (typeof WEBHOOK_ATTEMPT_TRIGGERS)[number];

/** One attempt of one delivery, as the delivery log shows it. */
export const webhookAttemptSchema = z
  .object({
    attempt: z.number().int(),
    /** automatic: the retry schedule; manual: a replay from the log. */
    trigger: z.enum(WEBHOOK_ATTEMPT_TRIGGERS),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    /** The start of the receiver's answer (at most 1 KB, control characters removed). */
    responseExcerpt: z.string().nullable(),
    durationMs: z.number().int(),
    attemptedAt: z.string(),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z
  .object({
    _id: z.string(),
    event: z.string(),
    /** pending: queued or waiting for a retry; succeeded: a 2xx answer; failed: no more attempts. */
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    /** The HTTP status of the last attempt; null when nothing answered. */
    statusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    lastAttemptAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    /** When the next automatic attempt is due; null unless pending. */
    nextAttemptAt: z.string().nullable(),
    /** Every attempt, oldest first. */
    attemptLog: z.array(webhookAttemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesQuerySchema = paginationQuerySchema;

export const webhookDeliveriesResponseSchema = z.object({ deliveries: z.array(webhookDeliverySchema), ...pageShape });
export type WebhookDeliveriesResponse = z.infer<typeof webhookDeliveriesResponseSchema>;

export const sendTestWebhookResponseSchema = z.object({ delivery: webhookDeliverySchema });

/** POST /api/users/webhook-deliveries/:id/replay: the delivery after its replayed attempt. */
export const replayWebhookDeliveryResponseSchema = z.object({ delivery: webhookDeliverySchema });
export type ReplayWebhookDeliveryResponse = z.infer<typeof replayWebhookDeliveryResponseSchema>;
