import { useId } from 'react';
import { RETENTION_RULES } from '#shared/schemas/privacy';

/** "How long we keep things": the retention table the prune job enforces (README, decision 0251). */
export function RetentionTable() {
  const id = useId();
  return (
    <div className="stack" role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>How long we keep things</h3>
      <div className="table-wrap rtable-wrap">
        <table className="admin-table rtable retention-table" aria-labelledby={`${id}-title`}>
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">How long</th>
            </tr>
          </thead>
          <tbody>
            {RETENTION_RULES.map((rule) => (
              <tr key={rule.what}>
                <td data-label="What">{rule.what}</td>
                <td data-label="How long">{rule.kept}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
