import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CatalogueResponse } from '#shared/schemas/catalogue';
import { api } from '#web/lib/api-client';
import { catalogueKeys } from './catalogue-keys';

/** GET /api/catalogue: the active items (anyone may read it, guests and visitors too). */
export const fetchCatalogue = (signal?: AbortSignal) => api.get<CatalogueResponse>('/api/catalogue', { signal });

export const catalogueQueryOptions = () =>
  queryOptions({
    queryKey: catalogueKeys.catalogue(),
    queryFn: ({ signal }) => fetchCatalogue(signal),
  });

export function useCatalogue() {
  return useQuery(catalogueQueryOptions());
}
