import { MamError } from '../errors.js';
import { issueData, type RegistryIssue, type RegistryIssueData, summarizeIssues } from './registry-issue.js';

/**
 * An update's mutator left a state that is not a valid registry (a duplicate name, an unknown agent, a Date, …); code
 * `REGISTRY_INVALID_UPDATE`. Nothing was written.
 * @public
 */
export class RegistryInvalidUpdateError extends MamError {
  /** Always `REGISTRY_INVALID_UPDATE`. */
  declare readonly code: 'REGISTRY_INVALID_UPDATE';
  /** The path, the first problem with its row and field, and every issue. */
  declare readonly data: Readonly<RegistryIssueData>;

  /** Builds the error for the registry file and every issue the mutator's state has; the message names the first. */
  constructor(path: string, issues: readonly RegistryIssue[]) {
    super('REGISTRY_INVALID_UPDATE', `update of the session registry ${path} refused, nothing written: ${summarizeIssues(issues)}`, issueData(path, issues));
  }
}
