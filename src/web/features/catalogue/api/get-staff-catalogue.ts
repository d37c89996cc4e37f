import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CatalogueResponse } from '#shared/schemas/catalogue';
import { api } from '#web/lib/api-client';
import { catalogueKeys } from './catalogue-keys';

/** GET /api/admin/catalogue: every item, hidden ones too. */
export const staffCatalogueQueryOptions = () =>
  queryOptions({
    queryKey: catalogueKeys.staffCatalogue(),
    queryFn: ({ signal }) => api.get<CatalogueResponse>('/api/admin/catalogue', { signal }),
  });

export function useStaffCatalogue() {
  return useQuery(staffCatalogueQueryOptions());
}
