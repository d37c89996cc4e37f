import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SlaCalendarBody, SlaHoliday, SlaSettingsResponse, SlaTargetsBody } from '#shared/schemas/support-sla';
import { api } from '#web/lib/api-client';

/** Query keys of the business hours and SLA targets (docs/decisions/0293). */
export const slaKeys = { settings: ['support-sla', 'settings'] as const };

/** GET /api/staff/support/sla: calendar, holidays and targets (every staff member). */
export const fetchSlaSettings = (signal?: AbortSignal) => api.get<SlaSettingsResponse>('/api/staff/support/sla', { signal });

export function useSlaSettings() {
  return useQuery({ queryKey: slaKeys.settings, queryFn: ({ signal }) => fetchSlaSettings(signal) });
}

/** Every change answers the whole settings, which replace the cached ones. */
function useSlaChange<V>(send: (v: V) => Promise<SlaSettingsResponse>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (data) => client.setQueryData(slaKeys.settings, data),
    // Tickets' due instants follow the calendar and targets.
    onSettled: () => client.invalidateQueries({ queryKey: ['tickets'] }),
  });
}

/** PUT /api/staff/support/sla/calendar (admin). */
export const useSaveSlaCalendar = () =>
  useSlaChange((body: SlaCalendarBody) => api.put<SlaSettingsResponse>('/api/staff/support/sla/calendar', body));
/** POST /api/staff/support/sla/holidays (admin). */
export const useAddSlaHoliday = () =>
  useSlaChange((body: SlaHoliday) => api.post<SlaSettingsResponse>('/api/staff/support/sla/holidays', body));
/** DELETE /api/staff/support/sla/holidays/:day (admin). */
export const useRemoveSlaHoliday = () =>
  useSlaChange((day: string) => api.delete<SlaSettingsResponse>(`/api/staff/support/sla/holidays/${encodeURIComponent(day)}`));
/** PUT /api/staff/support/sla/targets (admin). */
export const useSaveSlaTargets = () =>
  useSlaChange((body: SlaTargetsBody) => api.put<SlaSettingsResponse>('/api/staff/support/sla/targets', body));
