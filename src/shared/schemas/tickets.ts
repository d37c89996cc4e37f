import { z } from 'zod';
import { LOCALES } from '#shared/constants.js';
import { SLA_QUEUE_FILTERS, ticketSlaSchema } from './support-sla.js';
import { idParamsSchema, multiline, pageShape, paginationQuerySchema, uuidSchema } from './common.js';

export const TICKET_STATUSES = ['open', 'pending', 'resolved', 'closed'] as const;
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const TICKET_CATEGORIES = ['general', 'account', 'payments', 'exchange', 'rewards', 'technical'] as const;

export const TICKET_SUBJECT_MAX = 150;
export const TICKET_MESSAGE_MAX = 5000;

export const ticketStatusSchema = z.enum(TICKET_STATUSES);
export const ticketPrioritySchema = z.enum(TICKET_PRIORITIES);
export const ticketCategorySchema = z.enum(TICKET_CATEGORIES);

/** A message may have several lines. */
export const ticketMessageBodySchema = multiline(
  z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(TICKET_MESSAGE_MAX, `Message must be at most ${TICKET_MESSAGE_MAX} characters`),
);

export const createTicketBodySchema = z.object({
  subject: z
    .string({ error: 'Subject is required' })
    .trim()
    .min(3, 'Subject must be at least 3 characters')
    .max(TICKET_SUBJECT_MAX, `Subject must be at most ${TICKET_SUBJECT_MAX} characters`),
  category: ticketCategorySchema.default('general'),
  priority: ticketPrioritySchema.default('normal'),
  message: ticketMessageBodySchema,
});
export type CreateTicketBody = z.infer<typeof createTicketBodySchema>;

export const replyBodySchema = z.object({ message: ticketMessageBodySchema });

/** Staff answer; `internal: true` makes it a note the requester never sees. */
export const staffReplyBodySchema = z.object({ message: ticketMessageBodySchema, internal: z.boolean().optional() });

/** Merge `sourceId` (the duplicate) into the ticket in the path. */
export const mergeTicketBodySchema = z.object({ sourceId: uuidSchema });

export const TICKET_RATING_COMMENT_MAX = 1000;
/** The requester's rating of the answer, given once (decision 0190). */
export const rateTicketBodySchema = z.object({
  score: z
    .number({ error: 'Score must be a whole number from 1 to 5' })
    .int('Score must be a whole number from 1 to 5')
    .min(1, 'Score must be a whole number from 1 to 5')
    .max(5, 'Score must be a whole number from 1 to 5'),
  comment: multiline(
    z.string().trim().max(TICKET_RATING_COMMENT_MAX, `Comment must be at most ${TICKET_RATING_COMMENT_MAX} characters`),
  ).optional(),
});
export type RateTicketBody = z.infer<typeof rateTicketBodySchema>;

export const CANNED_TITLE_MAX = 80;
export const cannedReplyBodySchema = z.object({
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(CANNED_TITLE_MAX, `Title must be at most ${CANNED_TITLE_MAX} characters`),
  body: ticketMessageBodySchema,
});
export type CannedReplyBody = z.infer<typeof cannedReplyBodySchema>;
export const cannedReplySchema = z.object({ _id: z.string(), title: z.string(), body: z.string(), updatedAt: z.string() });
export type CannedReply = z.infer<typeof cannedReplySchema>;
export const cannedReplyListResponseSchema = z.object({ replies: z.array(cannedReplySchema) });
export const cannedReplyResponseSchema = z.object({ reply: cannedReplySchema });

export const staffMemberSchema = z.object({ _id: z.string(), username: z.string(), role: z.enum(['support', 'admin']) });
export type StaffMember = z.infer<typeof staffMemberSchema>;
export const staffMemberListResponseSchema = z.object({ staff: z.array(staffMemberSchema) });

const ratingAverageSchema = z.object({ average: z.number().nullable(), count: z.number().int() });
export const ticketRatingStatsSchema = z.object({
  overall: ratingAverageSchema,
  byStaff: z.array(ratingAverageSchema.extend({ _id: z.string(), username: z.string() })),
});
export type TicketRatingStats = z.infer<typeof ticketRatingStatsSchema>;

export const ticketIdParamsSchema = idParamsSchema;
export const attachmentParamsSchema = idParamsSchema.extend({ attachmentId: z.string().max(64) });
/** The upload's name travels in the query string (the body is the file itself). */
export const attachmentUploadQuerySchema = z.object({
  filename: z.string().trim().min(1, 'File name is required').max(200, 'File name must be at most 200 characters'),
  note: z.string().trim().max(TICKET_MESSAGE_MAX).optional(),
});

export const ticketListQuerySchema = paginationQuerySchema.extend({
  status: ticketStatusSchema.optional(),
});
export type TicketListQuery = z.input<typeof ticketListQuerySchema>;

export const staffTicketListQuerySchema = ticketListQuerySchema.extend({
  priority: ticketPrioritySchema.optional(),
  search: z.string().trim().max(100).optional(),
  assigned: z.enum(['me', 'unassigned', 'any']).default('any'),
  /** Only this user's tickets (operator console, user detail). */
  userId: uuidSchema.optional(),
  /** Only tickets with a target breached or due within a business hour (docs/decisions/0293). */
  sla: z.enum(SLA_QUEUE_FILTERS).optional(),
});
export type StaffTicketListQuery = z.input<typeof staffTicketListQuerySchema>;

export const staffTicketUpdateBodySchema = z
  .object({
    status: ticketStatusSchema.optional(),
    priority: ticketPrioritySchema.optional(),
    assignToMe: z.boolean().optional(),
    /** Assign to this staff member (support or admin), or null to unassign. */
    assigneeId: uuidSchema.nullable().optional(),
  })
  .refine((v) => v.status !== undefined || v.priority !== undefined || v.assignToMe !== undefined || v.assigneeId !== undefined, {
    message: 'Nothing to change',
  });

/** A requester may close their own ticket or reopen it. */
export const requesterTicketUpdateBodySchema = z.object({ status: z.enum(['open', 'closed']) });

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'] as const;

export const ticketAttachmentSchema = z.object({
  _id: z.string(),
  filename: z.string(),
  contentType: z.enum(ATTACHMENT_TYPES),
  size: z.number().int(),
});
export type TicketAttachment = z.infer<typeof ticketAttachmentSchema>;

export const ticketMessageSchema = z.object({
  _id: z.string(),
  author: z.enum(['requester', 'staff']),
  authorName: z.string(),
  body: z.string(),
  createdAt: z.string(),
  /** reply: a message both sides see; internal: a staff note (never sent to requesters); event: a notice such as a merge. */
  kind: z.enum(['reply', 'internal', 'event']),
  attachments: z.array(ticketAttachmentSchema),
});
export type TicketMessage = z.infer<typeof ticketMessageSchema>;

export const ticketSchema = z
  .object({
    _id: z.string(),
    number: z.number().int(),
    subject: z.string(),
    category: ticketCategorySchema,
    priority: ticketPrioritySchema,
    status: ticketStatusSchema,
    requester: z.object({
      type: z.enum(['guest', 'user']),
      name: z.string(),
      /**
       * Staff views of one ticket only: the language the requester reads the product in (`users.locale`;
       * null for a guest or an account that chose none), so staff know which language to answer in.
       */
      locale: z.enum(LOCALES).nullable().optional(),
    }),
    assignedTo: z.object({ _id: z.string(), username: z.string() }).nullable(),
    messageCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lastMessageAt: z.string(),
    /** When staff first answered visibly; null while the requester still waits. */
    firstResponseAt: z.string().nullable(),
    /** The ticket this one was merged into (it is closed and its messages are there). */
    mergedInto: z.object({ _id: z.string(), number: z.number().int() }).nullable(),
    rating: z.object({ score: z.number().int(), comment: z.string().nullable(), ratedAt: z.string() }).nullable(),
    /** Staff labels (docs/decisions/0294); absent in what requesters get. */
    tags: z.array(z.string()).optional(),
    messages: z.array(ticketMessageSchema).optional(),
    /** Staff views only: the first-response and resolution targets in business time (docs/decisions/0293). */
    sla: ticketSlaSchema.optional(),
  })
  .meta({ id: 'Ticket' });
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketResponseSchema = z.object({ ticket: ticketSchema });
export type TicketResponse = z.infer<typeof ticketResponseSchema>;
export const ticketListResponseSchema = z.object({ tickets: z.array(ticketSchema), ...pageShape });
export type TicketListResponse = z.infer<typeof ticketListResponseSchema>;

// ---- Requester context (staff): who asks, and their money, beside the ticket (docs/decisions/0291) ----

export const requesterMoneyRowSchema = z.object({
  id: z.string(),
  status: z.string(),
  /** What the row is worth in credits (a payment's credits, an order's price, an exchange's USD value). */
  amountCents: z.number().int(),
  /** A short description: "btc top-up", "btc → eth", the item's name. */
  label: z.string(),
  createdAt: z.string(),
});
export type RequesterMoneyRow = z.infer<typeof requesterMoneyRowSchema>;

export const requesterContextSchema = z.object({
  kind: z.enum(['user', 'guest']),
  /** A user's account; null for a guest. */
  account: z
    .object({
      id: z.string(),
      username: z.string(),
      email: z.string(),
      role: z.string(),
      createdAt: z.string(),
      emailVerified: z.boolean(),
      twoFactor: z.object({ totp: z.boolean(), passkeys: z.number().int() }),
      disabled: z.boolean(),
      balanceCents: z.number().int(),
    })
    .nullable(),
  payments: z.array(requesterMoneyRowSchema),
  exchanges: z.array(requesterMoneyRowSchema),
  orders: z.array(requesterMoneyRowSchema),
  /** The requester's other tickets that are not resolved or closed. */
  openTickets: z.array(z.object({ id: z.string(), number: z.number().int(), subject: z.string(), status: ticketStatusSchema })),
});
export type RequesterContext = z.infer<typeof requesterContextSchema>;
export const requesterContextResponseSchema = z.object({ requester: requesterContextSchema });
