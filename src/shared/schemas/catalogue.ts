import { z } from 'zod';
import { multiline, pageShape, paginationQuery, uuidField } from './common.js';

// Catalogue and orders (docs/decisions/0160-catalogue-and-orders.md). Prices are credits in
// cents (1 credit = 1 USD = 100 cents); a null stock means unlimited.

export const ORDER_STATUSES = ['paid', 'fulfilled', 'refunded'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** The header a purchase carries so a double click, a retry or a second tab buys once. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

export const PRICE_MAX_CENTS = 100_000_000;
export const STOCK_MAX = 1_000_000;

export const catalogueItemSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    description: z.string(),
    priceCents: z.number().int(),
    /** Units left; null when unlimited. */
    stock: z.number().int().nullable(),
    /** Hidden items are neither listed to users nor sold. */
    active: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'CatalogueItem' });
export type CatalogueItem = z.infer<typeof catalogueItemSchema>;

export const catalogueResponseSchema = z.object({ items: z.array(catalogueItemSchema) });
export type CatalogueResponse = z.infer<typeof catalogueResponseSchema>;
export const catalogueItemResponseSchema = z.object({ item: catalogueItemSchema });

const nameField = z.string({ error: 'Enter a name' }).trim().min(1, 'Enter a name').max(120, 'Keep the name under 120 characters');
const descriptionField = multiline(
  z.string({ error: 'Enter a description' }).trim().max(2000, 'Keep the description under 2000 characters'),
);
const priceField = z
  .number({ error: 'Enter a price in cents' })
  .int('The price is a whole number of cents')
  .min(1, 'The price is at least 1 cent')
  .max(PRICE_MAX_CENTS, 'That price is too large');
const stockField = z
  .number({ error: 'Enter the stock, or leave it empty for unlimited' })
  .int('Stock is a whole number')
  .min(0, 'Stock cannot be negative')
  .max(STOCK_MAX, 'That stock is too large')
  .nullable();

/** Staff: a new item. */
export const createCatalogueItemBodySchema = z.object({
  name: nameField,
  description: descriptionField,
  priceCents: priceField,
  /** null: unlimited. */
  stock: stockField,
  active: z.boolean().default(true),
});
export type CreateCatalogueItemBody = z.input<typeof createCatalogueItemBodySchema>;

/** Staff: change any of an item's fields (hide it with `active: false`). */
export const updateCatalogueItemBodySchema = z
  .object({
    name: nameField,
    description: descriptionField,
    priceCents: priceField,
    stock: stockField,
    active: z.boolean(),
  })
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'Change at least one field');
export type UpdateCatalogueItemBody = z.infer<typeof updateCatalogueItemBodySchema>;

/**
 * A user's purchase; the idempotency key travels in the `Idempotency-Key` header. `expectedPriceCents`
 * is the price the person saw and confirmed: a purchase never charges any other (decision 0210).
 */
export const createOrderBodySchema = z.object({
  itemId: uuidField('Unknown item'),
  expectedPriceCents: z
    .number({ error: 'Send expectedPriceCents: the price in cents you confirmed' })
    .int('expectedPriceCents is a whole number of cents')
    .min(0, 'expectedPriceCents cannot be negative')
    .max(PRICE_MAX_CENTS, 'expectedPriceCents is too large'),
});
export type CreateOrderBody = z.infer<typeof createOrderBodySchema>;

/** The details of a 409 PRICE_CHANGED answer: the price now (ask the person again with it). */
export const priceChangedDetailsSchema = z.object({ priceCents: z.number().int(), expectedPriceCents: z.number().int() });
export type PriceChangedDetails = z.infer<typeof priceChangedDetailsSchema>;

export const idempotencyKeyHeadersSchema = z.object({
  'idempotency-key': z
    .string({ error: 'Send an Idempotency-Key header (8-100 letters, digits, - or _)' })
    .regex(IDEMPOTENCY_KEY_PATTERN, 'The Idempotency-Key header must be 8-100 letters, digits, - or _'),
});

export const orderSchema = z
  .object({
    _id: z.string(),
    itemId: z.string(),
    /** The item's name and price when it was bought (later edits do not change the order). */
    itemName: z.string(),
    priceCents: z.number().int(),
    status: orderStatusSchema,
    /** The `spend` ledger entry that paid for the order (its receipt: /dashboard/receipts/<id>). */
    ledgerEntryId: z.string(),
    /** The ledger entry that credited the refund, once refunded. */
    refundLedgerEntryId: z.string().nullable(),
    createdAt: z.string(),
    fulfilledAt: z.string().nullable(),
    refundedAt: z.string().nullable(),
  })
  .meta({ id: 'Order' });
export type Order = z.infer<typeof orderSchema>;

export const orderResponseSchema = z.object({ order: orderSchema });
export type OrderResponse = z.infer<typeof orderResponseSchema>;

/** A purchase's answer: the order and the balance after it (201 new, 200 the same key answered again). */
export const purchaseResponseSchema = z.object({ order: orderSchema, balanceCents: z.number().int() });
export type PurchaseResponse = z.infer<typeof purchaseResponseSchema>;

/** The details of a 422 INSUFFICIENT_CREDITS answer to a purchase. */
export const insufficientCreditsDetailsSchema = z.object({
  shortfallCents: z.number().int(),
  balanceCents: z.number().int(),
  priceCents: z.number().int(),
});
export type InsufficientCreditsDetails = z.infer<typeof insufficientCreditsDetailsSchema>;

export const orderListQuerySchema = paginationQuery(20);
export const orderListResponseSchema = z.object({ orders: z.array(orderSchema), ...pageShape });
export type OrderListResponse = z.infer<typeof orderListResponseSchema>;

/** Staff view of an order: who bought it. */
export const adminOrderSchema = orderSchema
  .extend({ owner: z.object({ userId: z.string(), username: z.string() }) })
  .meta({ id: 'AdminOrder' });
export type AdminOrder = z.infer<typeof adminOrderSchema>;
export const adminOrderListQuerySchema = paginationQuery(20).extend({ status: orderStatusSchema.optional() });
export type AdminOrderListQuery = z.input<typeof adminOrderListQuerySchema>;
export const adminOrderListResponseSchema = z.object({ orders: z.array(adminOrderSchema), ...pageShape });
export type AdminOrderListResponse = z.infer<typeof adminOrderListResponseSchema>;
export const adminOrderResponseSchema = z.object({ order: adminOrderSchema });
