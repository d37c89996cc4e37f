import { t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import type { StatusComponentId } from '#shared/schemas/status';
import { currentLocale, RichText, useLocale } from '#web/features/language';
import { useComponentStatus } from '../api/get-current-status';
import { componentName } from './status-labels';
import './component-notice.css';

interface ComponentNoticeProps {
  component: StatusComponentId;
  /** What the person is about to do, said in the notice: "Top-ups", "Swaps". */
  action: string;
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
  const consequence = state === 'down' ? t`${action} may fail right now.` : t`${action} may be slow right now.`;
  // Mid-sentence the action is lower case, but German keeps its nouns capitalised.
  const activity = currentLocale() === 'de' ? action : action.toLowerCase();
  const name = componentName(component, component);
  return (
    <div className="component-notice" data-state={severity} role="status" data-testid={`component-notice-${component}`}>
      <p className="component-notice-title">
        {incidents[0] ? incidents[0].title : affected ? t`${name}: not working normally` : maintenance[0]!.title}
      </p>
      <p>
        {affected ? consequence : t`Maintenance is under way; ${activity} may be briefly unavailable.`}{' '}
        <RichText message={t`<0>See the status page</0> for updates.`} elements={[<Link key="status" to={paths.status} />]} />
      </p>
    </div>
  );
}
