import { createHash } from 'node:crypto';
import type { AgentCatalog } from '../agents/outside-agents.js';
import { parseRegistryText } from './parse-registry-text.js';
import type { RegistryState } from './registry-state.js';

/**
 * One version of the registry file as this process knows it: its bytes, their hash, the validated state (never handed
 * out: callers get copies), and each row's YAML text once it has been written or needed.
 * @public
 */
export interface LoadedRegistry {
  /** The file's bytes, or null when there is no file. */
  bytes: Uint8Array | null;
  /** sha256 (hex) of `bytes`, computed when first read (only the mirror needs it); empty when there is no file. */
  readonly hash: string;
  state: RegistryState;
  /** The `- …` text (UTF-8) of each row, index-aligned with `state.herdr_sessions`; filled as rows are written. */
  rowTexts: Array<Uint8Array | undefined>;
  /** Which lists the file had; an absent `orchestrator_uuids` stays absent while it is empty. */
  present: { herdr_sessions: boolean; orchestrator_uuids: boolean };
}

const NEWLINE = Buffer.from('\n');

/**
 * The sha256 (hex) of some bytes.
 * @public
 */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Completes a version with a `hash` getter that hashes its bytes once, on first use.
 * @public
 */
export function withLazyHash(v: Omit<LoadedRegistry, 'hash'> & { bytes: Uint8Array }): LoadedRegistry & { bytes: Uint8Array } {
  let hash: string | undefined;
  return Object.defineProperty(v, 'hash', { get: () => (hash ??= sha256(v.bytes)), enumerable: true }) as LoadedRegistry & { bytes: Uint8Array };
}

/**
 * The registry of a workspace with no registry file yet.
 * @public
 */
export function missingRegistry(): LoadedRegistry {
  return { bytes: null, hash: '', state: { orchestrator_uuids: [], herdr_sessions: [] }, rowTexts: [], present: { herdr_sessions: true, orchestrator_uuids: true } };
}

/**
 * Parses and strictly validates a file's text into a {@link LoadedRegistry} (rows may name `agents`, the built-ins by
 * default); throws a RegistryCorruptError.
 * @public
 */
export async function loadRegistryText(bytes: Uint8Array, text: string, path: string, agents?: AgentCatalog<string>): Promise<LoadedRegistry> {
  const { state, present, rowSpans } = await parseRegistryText(text, path, agents === undefined ? {} : { agents });
  // Rows the fast parser read keep their original text: an unchanged row is written back byte for byte. In an ASCII
  // file a character offset is a byte offset, so a row's bytes are a view of the file's, newline included.
  const ascii = bytes.length === text.length;
  const n = state.herdr_sessions.length;
  if (rowSpans?.length !== n) return withLazyHash({ bytes, state, rowTexts: new Array<Uint8Array | undefined>(n), present });
  if (!ascii) return withLazyHash({ bytes, state, rowTexts: rowSpans.map(([s, e]) => Buffer.from(`${text.slice(s, e)}\n`)), present });
  // Only an update needs them: a read-only process (a snapshot) makes no view at all.
  const spans = rowSpans;
  let texts: Array<Uint8Array | undefined> | undefined;
  const v = withLazyHash({ bytes, state, rowTexts: [], present });
  return Object.defineProperty(v, 'rowTexts', {
    get: () => (texts ??= spans.map(([s, e]) => (e < bytes.length ? bytes.subarray(s, e + 1) : Buffer.concat([bytes.subarray(s, e), NEWLINE])))),
    set: (t: Array<Uint8Array | undefined>) => {
      texts = t;
    },
    enumerable: true,
    configurable: true,
  });
}
