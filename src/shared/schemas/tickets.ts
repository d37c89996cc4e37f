import { z } from 'zod';
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

export const ticketIdParamsSchema = idParamsSchema;

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
});
export type StaffTicketListQuery = z.input<typeof staffTicketListQuerySchema>;

export const staffTicketUpdateBodySchema = z
  .object({
    status: ticketStatusSchema.optional(),
    priority: ticketPrioritySchema.optional(),
    assignToMe: z.boolean().optional(),
  })
  .refine((v) => v.status !== undefined || v.priority !== undefined || v.assignToMe !== undefined, {
    message: 'Nothing to change',
  });

/** A requester may close their own ticket or reopen it. */
export const requesterTicketUpdateBodySchema = z.object({ status: z.enum(['open', 'closed']) });

export const ticketMessageSchema = z.object({
  _id: z.string(),
  author: z.enum(['requester', 'staff']),
  authorName: z.string(),
  body: z.string(),
  createdAt: z.string(),
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
    requester: z.object({ type: z.enum(['guest', 'user']), name: z.string() }),
    assignedTo: z.object({ _id: z.string(), username: z.string() }).nullable(),
    messageCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    lastMessageAt: z.string(),
    messages: z.array(ticketMessageSchema).optional(),
  })
  .meta({ id: 'Ticket' });
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketResponseSchema = z.object({ ticket: ticketSchema });
export type TicketResponse = z.infer<typeof ticketResponseSchema>;
export const ticketListResponseSchema = z.object({ tickets: z.array(ticketSchema), ...pageShape });
export type TicketListResponse = z.infer<typeof ticketListResponseSchema>;
