/** Support automation (docs/support-rules.md): only the staff console uses it, through ./staff. */
export type { Rule, RuleRun } from '#shared/schemas/support-rules';
