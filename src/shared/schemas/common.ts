import { z } from 'zod';

/** Every error answer of the API (design.md section 3). */
export const errorResponseSchema = z
  .object({
    error: z.string(),
    code: z.string(),
    details: z.unknown().optional(),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });

export const uuidSchema = z.uuid();
export const idParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const paginationQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
