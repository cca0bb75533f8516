/** The README's quick start: the file name its text gives, the command that runs it, and its code. */
export interface ReadmeQuickStart {
  file: string;
  command: string;
  code: string;
}
/** The quick start of `readme`; throws naming what is missing. */
export function readmeQuickStart(readme: string): ReadmeQuickStart;
/** Why `stdout` of a quick start run is not the non-empty result the README promises (null when it is). */
export function quickStartOutputProblem(stdout: string): string | null;
