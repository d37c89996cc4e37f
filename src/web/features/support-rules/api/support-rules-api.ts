import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AutoCloseSettings, Rule, RuleBody, RuleRun } from '#shared/schemas/support-rules';
import { api } from '#web/lib/api-client';

/** Query keys of the support automation (rules, their runs, the auto-close setting). */
export const ruleKeys = {
  all: () => ['support-rules'] as const,
  rules: () => ['support-rules', 'rules'] as const,
  runs: () => ['support-rules', 'runs'] as const,
  autoClose: () => ['support-rules', 'auto-close'] as const,
};

/** GET /api/staff/support-rules: every rule, in the order they run. */
export const rulesQueryOptions = () =>
  queryOptions({ queryKey: ruleKeys.rules(), queryFn: ({ signal }) => api.get<{ rules: Rule[] }>('/api/staff/support-rules', { signal }) });
export function useRules() {
  return useQuery(rulesQueryOptions());
}

/** GET /api/staff/support-rules/runs: the latest runs (the run log). */
export function useRuleRuns() {
  return useQuery({
    queryKey: ruleKeys.runs(),
    queryFn: ({ signal }) => api.get<{ runs: RuleRun[] }>('/api/staff/support-rules/runs', { signal }),
  });
}

/** GET /api/staff/support-settings/auto-close. */
export function useAutoClose() {
  return useQuery({
    queryKey: ruleKeys.autoClose(),
    queryFn: ({ signal }) => api.get<AutoCloseSettings>('/api/staff/support-settings/auto-close', { signal }),
  });
}

export type RuleChange =
  { kind: 'save'; id: string | null; rule: RuleBody } | { kind: 'enable'; id: string; enabled: boolean } | { kind: 'delete'; id: string };

/** POST (new), PUT …/{id} (change), PUT …/{id}/enabled (switch on or off) or DELETE …/{id}. */
export async function changeRule(change: RuleChange): Promise<Rule | null> {
  const path = (id: string) => `/api/staff/support-rules/${encodeURIComponent(id)}`;
  if (change.kind === 'delete') {
    await api.delete(path(change.id));
    return null;
  }
  if (change.kind === 'enable') return (await api.put<{ rule: Rule }>(`${path(change.id)}/enabled`, { enabled: change.enabled })).rule;
  const res = change.id
    ? await api.put<{ rule: Rule }>(path(change.id), change.rule)
    : await api.post<{ rule: Rule }>('/api/staff/support-rules', change.rule);
  return res.rule;
}

export function useChangeRule() {
  const client = useQueryClient();
  return useMutation({ mutationFn: changeRule, onSuccess: () => client.invalidateQueries({ queryKey: ruleKeys.rules() }) });
}

/** PUT /api/staff/support-settings/auto-close (admins). */
export function useSaveAutoClose() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoCloseSettings) => api.put<AutoCloseSettings>('/api/staff/support-settings/auto-close', body),
    onSuccess: (data) => client.setQueryData(ruleKeys.autoClose(), data),
  });
}
