/**
 * Why the precheck refuses a reset, with its evidence; every refusal leaves everything as it was.
 * @public
 */
export type ResetRefusal =
  | { kind: 'open-job'; job: string; target: string; status: string; message: string }
  | { kind: 'live-marker'; marker: 'loop' | 'update'; path: string; pid: number | null; message: string }
  | { kind: 'caller-is-target'; name: string; envVar: string; message: string }
  | { kind: 'bad-target'; name: string; problem: string; message: string }
  | { kind: 'bad-spec'; path: string; message: string };
