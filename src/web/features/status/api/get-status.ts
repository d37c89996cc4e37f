import type { StatusResponse } from '../../../../shared/schemas/status';
import { api } from '../../../lib/api-client';

export const getStatus = (signal?: AbortSignal) => api.get<StatusResponse>('/api/status', signal ? { signal } : undefined);
