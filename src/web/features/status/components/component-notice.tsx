import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { STATUS_COMPONENT_NAMES, type StatusComponentId } from '#shared/schemas/status';
import { useComponentStatus } from '../api/get-current-status';
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
  const status = useComponentStatus(component);
  if (!status) return null;
  const { state, incidents, maintenance } = status;
  const affected = state === 'degraded' || state === 'down' || incidents.length > 0;
  if (!affected && maintenance.length === 0) return null;
  const severity = state === 'down' ? 'down' : 'degraded';
  const consequence = state === 'down' ? `${action} may fail right now.` : `${action} may be slow right now.`;
  return (
    <div className="component-notice" data-state={severity} role="status" data-testid={`component-notice-${component}`}>
      <p className="component-notice-title">
        {incidents[0]
          ? incidents[0].title
          : affected
            ? `${STATUS_COMPONENT_NAMES[component]}: not working normally`
            : maintenance[0]!.title}
      </p>
      <p>
        {affected ? consequence : `Maintenance is under way; ${action.toLowerCase()} may be briefly unavailable.`}{' '}
        <Link to={paths.status}>See the status page</Link> for updates.
      </p>
    </div>
  );
}
