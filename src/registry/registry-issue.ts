import type { RegistryIssue, RegistryIssueData } from '../error-data.js';

export type { RegistryIssue, RegistryIssueData, RegistryProblem } from '../error-data.js';

/**
 * The first issue's message, plus how many more there are.
 * @public
 */
export function summarizeIssues(issues: readonly RegistryIssue[]): string {
  const first = issues[0];
  if (first === undefined) return 'no problem found';
  return issues.length === 1 ? first.message : `${first.message} (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})`;
}

/**
 * The data every registry error carries: the path, the first issue's problem, row and field, and all issues.
 * @public
 */
export function issueData(path: string, issues: readonly RegistryIssue[]): RegistryIssueData {
  const first = issues[0];
  return {
    path,
    problem: first?.problem ?? 'invalid-field',
    ...(first?.row === undefined ? {} : { row: first.row }),
    ...(first?.field === undefined ? {} : { field: first.field }),
    issues: [...issues],
  };
}

