import { z } from 'zod';
import { uuidField } from './common.js';
import { STEP_UP_FIELDS } from './two-factor.js';

/**
 * The charge API (decision 0165): API keys made by admins in the console, and charges
 * the operator's own services make against a user's credits with one of them.
 */

/** Every API key starts with this; the session check refuses anything that starts with `olk_`. */
export const API_KEY_PREFIX = 'olk_live_';
export const API_KEY_FAMILY = 'olk_';

// ---- API keys (operator console) ---------------------------------------------------------------------

export const apiKeySchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    /** The first characters of the key (`olk_live_AbCd1234`), to tell keys apart; never the key. */
    prefix: z.string(),
    rateLimitPerMinute: z.number().int(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createApiKeyBodySchema = z.object({
  name: z.string({ error: 'Give the key a name' }).trim().min(1, 'Give the key a name').max(80, 'Keep the name under 80 characters'),
  /** Charge API calls allowed per minute with this key (default 120). */
  rateLimitPerMinute: z
    .number()
    .int('Use a whole number')
    .min(1, 'At least 1 call a minute')
    .max(10_000, 'At most 10000 calls a minute')
    .optional(),
  ...STEP_UP_FIELDS,
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

/** The key itself is in this answer only: it is stored hashed and never shown again. */
export const createApiKeyResponseSchema = z.object({ apiKey: apiKeySchema, key: z.string() });
export type CreateApiKeyResponse = z.infer<typeof createApiKeyResponseSchema>;

export const apiKeyListResponseSchema = z.object({ apiKeys: z.array(apiKeySchema) });
export type ApiKeyListResponse = z.infer<typeof apiKeyListResponseSchema>;

export const apiKeyResponseSchema = z.object({ apiKey: apiKeySchema });

// ---- Charges ----------------------------------------------------------------------------------------

export const CHARGE_STATUSES = ['succeeded', 'refunded'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

export const METADATA_MAX_KEYS = 20;
const METADATA_KEY = /^[A-Za-z0-9_.-]{1,40}$/;

/** A small flat object of strings: at most 20 keys of 1-40 characters (letters, digits, `_.-`), values up to 500. */
export const chargeMetadataSchema = z
  .record(
    z.string().regex(METADATA_KEY, 'Metadata keys are 1-40 letters, digits, _ . or -'),
    z.string().max(500, 'Metadata values are at most 500 characters'),
  )
  .refine((m) => Object.keys(m).length <= METADATA_MAX_KEYS, `At most ${METADATA_MAX_KEYS} metadata keys`);

export const createChargeBodySchema = z.object({
  userId: uuidField('Unknown user'),
  amountCents: z
    .number({ error: 'amountCents must be a number' })
    .int('amountCents must be a whole number of cents')
    .min(1, 'amountCents must be at least 1')
    .max(100_000_000, 'amountCents is at most 100000000 (1,000,000 credits)'),
  description: z
    .string({ error: 'Give a description' })
    .trim()
    .min(1, 'Give a description')
    .max(200, 'Keep the description under 200 characters'),
  metadata: chargeMetadataSchema.optional(),
});
export type CreateChargeBody = z.infer<typeof createChargeBodySchema>;

/** `Idempotency-Key` is required: a retry with the same key and body answers the first result. */
export const chargeHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string({ error: 'The Idempotency-Key header is required' })
    .min(1, 'The Idempotency-Key header is required')
    .max(255, 'The Idempotency-Key header is at most 255 characters')
    .regex(/^[\x21-\x7e]+$/, 'The Idempotency-Key header takes printable ASCII without spaces'),
});

export const chargeSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    amountCents: z.number().int(),
    description: z.string(),
    metadata: z.record(z.string(), z.string()),
    status: z.enum(CHARGE_STATUSES),
    /** The `spend` entry the charge made (reference `charge:<id>`). */
    ledgerEntryId: z.string(),
    /** The `refund` entry of its refund (reference `charge-refund:<id>`), once refunded. */
    refundLedgerEntryId: z.string().nullable(),
    createdAt: z.string(),
    refundedAt: z.string().nullable(),
  })
  .meta({ id: 'Charge' });
export type Charge = z.infer<typeof chargeSchema>;

/** A charge or a refund, with the user's balance right after it (in cents). */
export const chargeResponseSchema = z.object({ charge: chargeSchema, balanceCents: z.number().int() });
export type ChargeResponse = z.infer<typeof chargeResponseSchema>;

export const chargeOnlyResponseSchema = z.object({ charge: chargeSchema });
