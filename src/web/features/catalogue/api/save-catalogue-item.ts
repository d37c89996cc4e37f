import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CatalogueItem, CreateCatalogueItemBody, UpdateCatalogueItemBody } from '#shared/schemas/catalogue';
import { api } from '#web/lib/api-client';
import { catalogueKeys } from './catalogue-keys';

export type SaveCatalogueItemInput = { id: null; body: CreateCatalogueItemBody } | { id: string; body: UpdateCatalogueItemBody };

/** POST /api/admin/catalogue (new) or PUT /api/admin/catalogue/:id (change, hide, show). */
export const saveCatalogueItem = (input: SaveCatalogueItemInput) =>
  input.id === null
    ? api.post<{ item: CatalogueItem }>('/api/admin/catalogue', input.body)
    : api.put<{ item: CatalogueItem }>(`/api/admin/catalogue/${encodeURIComponent(input.id)}`, input.body);

export function useSaveCatalogueItem() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveCatalogueItem,
    onSettled: () => client.invalidateQueries({ queryKey: catalogueKeys.all }),
  });
}
