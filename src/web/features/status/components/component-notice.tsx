import { t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import type { StatusComponentId } from '#shared/schemas/status';
import { RichText, useLocale } from '#web/features/language';
import { useComponentStatus } from '../api/get-current-status';
import { componentName } from './status-labels';
import './component-notice.css';

/** What the person is about to do, which the notice's sentences name. */
export type NoticeAction = 'top-ups' | 'swaps';

interface ComponentNoticeProps {
  component: StatusComponentId;
  action: NoticeAction;
}

type Situation = 'down' | 'degraded' | 'maintenance';

/**
 * Whole sentences per action and situation, so each language words (and capitalises) the action as its
 * grammar needs rather than a word being slotted into one sentence.
 */
function consequence(action: NoticeAction, situation: Situation): string {
  if (action === 'top-ups') {
    if (situation === 'down') return t`Top-ups may fail right now.`;
    if (situation === 'degraded') return t`Top-ups may be slow right now.`;
    return t`Maintenance is under way; top-ups may be briefly unavailable.`;
  }
  if (situation === 'down') return t`Swaps may fail right now.`;
  if (situation === 'degraded') return t`Swaps may be slow right now.`;
  return t`Maintenance is under way; swaps may be briefly unavailable.`;
}

/**
 * Says, where a person is about to use a component, that an incident or a failing check affects it,
 * linked to the status page (docs/decisions/0318-incidents-where-they-matter.md). Nothing while it works.
 */
export function ComponentNotice({ component, action }: ComponentNoticeProps) {
  useLocale();
  const status = useComponentStatus(component);
  if (!status) return null;
  const { state, incidents, maintenance } = status;
  const affected = state === 'degraded' || state === 'down' || incidents.length > 0;
  if (!affected && maintenance.length === 0) return null;
  const severity = state === 'down' ? 'down' : 'degraded';
  const name = componentName(component, component);
  return (
    <div className="component-notice" data-state={severity} role="status" data-testid={`component-notice-${component}`}>
      <p className="component-notice-title">
        {incidents[0] ? incidents[0].title : affected ? t`${name}: not working normally` : maintenance[0]!.title}
      </p>
      <p>
        {consequence(action, affected ? severity : 'maintenance')}{' '}
        <RichText message={t`<0>See the status page</0> for updates.`} elements={[<Link key="status" to={paths.status} />]} />
      </p>
    </div>
  );
}
