import type { ConfigProblem } from '../../shared/contract/config-contract';

/** What is wrong with config.json, by field, while the last valid configuration stays in force. */
export function ConfigProblemNotice({ problem }: { readonly problem: ConfigProblem }) {
  return (
    <div className="config-problem" role="status" data-testid="config-problem" data-field={problem.field}>
      <span className="config-problem-field">config.json: {problem.field}</span>
      <span>{problem.message}</span>
    </div>
  );
}
