/**
 * What is wrong with a registry file or an updated registry state.
 * - `empty`: the file has no content; `yaml`: it is not valid YAML; `not-a-mapping`: its top level is not a mapping;
 * - `not-a-list`: `herdr_sessions` or `orchestrator_uuids` is not a list; `row-not-a-mapping`: a row is not a mapping;
 * - `invalid-field`: a row field has the wrong type or value; `unknown-agent`: a row's `agent` is not a canonical name;
 * - `duplicate-name`: two rows share a name; `unsupported-value`: a value YAML cannot hold (a Date, a function, …);
 * - `not-a-file`: the registry path is not a regular file (a FIFO, socket, device or directory: never opened for reading).
 * @public
 */
export type RegistryProblem =
  | 'empty'
  | 'yaml'
  | 'not-a-mapping'
  | 'not-a-list'
  | 'row-not-a-mapping'
  | 'invalid-field'
  | 'unknown-agent'
  | 'duplicate-name'
  | 'unsupported-value'
  | 'not-a-file';

/**
 * One problem found in a registry, naming the row (by name, else `#<index>`) and the field where there is one.
 * @public
 */
export interface RegistryIssue {
  /** What kind of problem it is. */
  problem: RegistryProblem;
  /** A sentence for a person, naming the row and field. */
  message: string;
  /** The row's name, or `#<index>` for a row without a usable name. */
  row?: string;
  /** The row's index in `herdr_sessions`. */
  index?: number;
  /** The field, dotted for nested ones (`pane.cwd`); a top-level key for file-level problems. */
  field?: string;
  /** Line and column in the file, for YAML syntax errors. */
  line?: number;
  /** The column of `line`, for YAML syntax errors. */
  column?: number;
}

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

/**
 * Structured details of a registry error.
 * @public
 */
export type RegistryIssueData = {
  /** The registry file. */
  path: string;
  /** The first issue's problem. */
  problem: RegistryProblem;
  /** The first issue's row, when it is about a row. */
  row?: string;
  /** The first issue's field, when it is about a field. */
  field?: string;
  /** Every issue found, in file order. */
  issues: RegistryIssue[];
};
