// A temp Claude home for adapter tests: config root, a workspace, a private TMPDIR, and writers for every artifact kind.
import { createHash, randomUUID } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { claudeProjectKey } from '../../src/agents/claude/project-key.js';
import type { HomeDiscoveryContext } from '../../src/agents/types.js';

export interface ClaudeSandbox {
  /** Canonical temp dir holding everything. */
  root: string;
  home: string;
  /** `<home>/.claude`. */
  config: string;
  /** A real workspace dir. */
  ws: string;
  /** The TMPDIR the agent env names (holds `claude-0/<key>/<id>/`). */
  tmp: string;
  /** The agent env: only TMPDIR (a sandbox home never inherits the caller's variables). */
  env: Record<string, string>;
  ctx(over?: Partial<HomeDiscoveryContext>): HomeDiscoveryContext;
  dispose(): Promise<void>;
}

export async function makeClaudeSandbox(tag = 'mam-claude-'): Promise<ClaudeSandbox> {
  const root = realpathSync(await mkdtemp(join(tmpdir(), tag)));
  const home = join(root, 'home');
  const config = join(home, '.claude');
  const ws = join(root, 'ws');
  const tmp = join(root, 'tmp');
  for (const d of [config, ws, tmp]) mkdirSync(d, { recursive: true });
  const env = { TMPDIR: tmp };
  return {
    root,
    home,
    config,
    ws,
    tmp,
    env,
    ctx: (over = {}) => ({ workspace: ws, home: home, env, ...over }),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

export const freshId = (): string => randomUUID();

function put(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export interface TranscriptOptions {
  /** ISO start of the first record (default 2026-11-30T00:00:00.000Z). */
  start?: string;
  /** The recorded cwd (default the workspace's path); null writes records without any cwd. */
  cwd?: string | null;
  /** Key dir name (default the key of `ws`). */
  key?: string;
  /** Projects root (default `<config>/projects`). */
  projects?: string;
}

/** A transcript like Claude 2.1 writes: a queue record, a user record carrying cwd + sessionId, an assistant record. */
export function writeTranscript(sb: ClaudeSandbox, id: string, opts: TranscriptOptions = {}): string {
  const start = opts.start ?? '2026-11-30T00:00:00.000Z';
  const cwd = opts.cwd === undefined ? sb.ws : opts.cwd;
  const base = { sessionId: id, version: '2.1.197', ...(cwd === null ? {} : { cwd }) };
  const lines = [
    { type: 'queue-operation', operation: 'enqueue', timestamp: start, sessionId: id, content: 'hi' },
    { parentUuid: null, type: 'user', message: { role: 'user', content: 'hi' }, uuid: randomUUID(), timestamp: start, ...base },
    { parentUuid: null, type: 'assistant', message: { role: 'assistant', content: 'hello' }, uuid: randomUUID(), timestamp: start, ...base },
  ];
  const key = opts.key ?? claudeProjectKey(sb.ws);
  return put(join(opts.projects ?? join(sb.config, 'projects'), key, `${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

/** A live-session file `sessions/<pid>.json` as Claude 2.1 writes it (fields overridable, `undefined` drops one). */
export function writeSessionFile(sb: ClaudeSandbox, pid: number, id: string, fields: Record<string, unknown> = {}): string {
  const rec: Record<string, unknown> = { pid, sessionId: id, cwd: sb.ws, startedAt: 1_795_999_188_000, version: '2.1.197', kind: 'interactive', ...fields };
  for (const k of Object.keys(rec)) if (rec[k] === undefined) delete rec[k];
  return put(join(sb.config, 'sessions', `${pid}.json`), JSON.stringify(rec));
}

/** Every per-conversation artifact kind besides the transcript and session files; returns the paths a purge must remove. */
export function writeConversationArtifacts(sb: ClaudeSandbox, id: string): string[] {
  const key = claudeProjectKey(sb.ws);
  const c = sb.config;
  const out = [
    put(join(sb.tmp, 'claude-0', key, id, 'tasks', 'b1.output'), 'task out'),
    put(join(c, 'session-env', id, 'sessionstart-hook-0.sh'), 'export X=1'),
    put(join(c, 'file-history', id, 'abc@v1'), 'old file'),
    put(join(c, 'tasks', id, '1.json'), '{}'),
    put(join(c, 'todos', `${id}-agent-${id}.json`), '[]'),
    put(join(c, 'debug', `${id}.txt`), 'debug'),
    put(join(c, 'telemetry', `1p_failed_events.${id}.${randomUUID()}.json`), '{}'),
    put(join(c, 'projects', key, id, 'subagents', 'agent-1.jsonl'), '{}\n'),
  ];
  // Directories count once: report the conversation's dir, not the files inside.
  return out.map((p) => {
    for (const marker of [join(sb.tmp, 'claude-0', key, id), join(c, 'session-env', id), join(c, 'file-history', id), join(c, 'tasks', id), join(c, 'projects', key, id)]) {
      if (p.startsWith(`${marker}/`)) return marker;
    }
    return p;
  });
}

/** A background-job dir `jobs/<short>/` whose state.json names the session. */
export function writeJobDir(sb: ClaudeSandbox, id: string, short = id.slice(0, 8)): string {
  const dir = join(sb.config, 'jobs', short);
  put(join(dir, 'state.json'), JSON.stringify({ state: 'done', sessionId: id, cwd: sb.ws, intent: 'x' }));
  put(join(dir, 'timeline.jsonl'), '{"state":"done"}\n');
  put(join(dir, 'tmp', 'scratch.txt'), 'x');
  return dir;
}

/** Every entry under `dir` (not following links) → its kind and content digest; equal before and after a read. */
export function treeDigest(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      const rel = relative(dir, p);
      if (st.isSymbolicLink()) out.set(rel, `link:${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.set(rel, 'dir');
        walk(p);
      } else out.set(rel, `file:${createHash('sha256').update(readFileSync(p)).digest('hex')}:${st.mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}
