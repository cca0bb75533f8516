import { MamError } from '../errors.js';
import { issueData, type RegistryIssue, type RegistryIssueData, summarizeIssues } from './registry-issue.js';

/**
 * The registry file cannot be read (empty, bad YAML, wrong shape, a bad row); code `REGISTRY_CORRUPT`. No update writes over such a file.
 * @public
 */
export class RegistryCorruptError extends MamError {
  /** Always `REGISTRY_CORRUPT`. */
  declare readonly code: 'REGISTRY_CORRUPT';
  /** The path, the first problem with its row and field, and every issue. */
  declare readonly data: Readonly<RegistryIssueData>;

  /** Builds the error for the registry file and every issue found; the message names the first. */
  constructor(path: string, issues: readonly RegistryIssue[], options?: { cause?: unknown }) {
    super(
      'REGISTRY_CORRUPT',
      `cannot read the session registry ${path}: ${summarizeIssues(issues)}; it was left as it is: check it, then fix or remove it by hand`,
      issueData(path, issues),
      options,
    );
  }
}
