import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { AgentName } from '../../ids/agent-names.js';
import type { SeedSqliteState } from './seed-sqlite.js';

/**
 * Everything one seeded conversation is written from: where, as whom, when, and how its database rows are left.
 */
export interface SeedPlan {
  agent: AgentName;
  /** The sandbox home (canonical). */
  home: string;
  /** The conversation's cwd (canonical), as the CLI records it. */
  cwd: string;
  id: string;
  /** Epoch ms the conversation starts at. */
  now: number;
  sqlite: SeedSqliteState;
  /** The first prompt. */
  prompt: string;
  /** The sandbox env: an agent-location variable in it (inside the home) is honoured as the CLI honours it. */
  env: Readonly<Record<string, string>>;
}

/** An agent's data dir: the variable when set to a path inside the home (as the fake agents decide), else the default. */
export function dataDir(plan: SeedPlan, variable: string, fallback: string, suffix = ''): string {
  const value = plan.env[variable];
  if (value === undefined || value === '') return join(plan.home, fallback);
  const dir = resolve(value);
  return dir === plan.home || dir.startsWith(`${plan.home}/`) ? join(dir, suffix) : join(plan.home, fallback);
}

/** Creates a directory (and its parents) the way the CLIs do (mode 700); returns it. */
export function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Appends JSON lines to a file (mode 600), creating its directory. */
export function appendLines(file: string, records: readonly unknown[]): void {
  mkdirp(dirname(file));
  appendFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode: 0o600 });
}

/** Writes a whole file by rename (mode 600), creating its directory. */
export function writeWhole(file: string, text: string): void {
  mkdirp(dirname(file));
  const tmp = `${file}.${randomUUID()}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

/** A JSON object file's content, or `{}` when absent or not an object. */
export function readObject(file: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** A uuid v7 at `ms` (Codex thread ids, Grok session ids). */
export function uuidV7(ms: number): string {
  const b = randomBytes(16);
  let t = ms;
  for (let i = 5; i >= 0; i -= 1) {
    b[i] = t % 256;
    t = Math.floor(t / 256);
  }
  b[6] = ((b[6] as number) & 0x0f) | 0x70;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
let counter = 0;

/** OpenCode's descending id for `prefix` (`ses`, `msg`, …): 12 hex of ~(ms·4096 + counter), then 14 random base62. */
export function opencodeId(prefix: string, ms: number, descending = true): string {
  counter = (counter + 1) % 4096;
  const n = BigInt(ms) * 4096n + BigInt(counter);
  const time = (descending ? ~n & 0xffffffffffffn : n).toString(16).padStart(12, '0');
  return `${prefix}_${time}${Array.from(randomBytes(14), (x) => B62.charAt(x % 62)).join('')}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Hermes' CLI session id: the local start time `YYYYMMDD_HHMMSS` and 6 random hex. */
export function hermesId(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}_${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}_${hex(randomBytes(3))}`;
}

/** The local date parts and the `YYYY-MM-DDTHH-MM-SS` stamp Codex names a rollout by. */
export function localStamp(ms: number): { day: [string, string, string]; stamp: string } {
  const d = new Date(ms);
  const day: [string, string, string] = [String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate())];
  return { day, stamp: `${day.join('-')}T${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}` };
}

/** A fresh id in the agent's own shape, as its CLI mints one. */
export function mintId(agent: AgentName, ms: number): string {
  switch (agent) {
    case 'codex':
    case 'grok':
      return uuidV7(ms);
    case 'opencode':
      return opencodeId('ses', ms);
    case 'hermes':
      return hermesId(ms);
    default:
      return randomUUID();
  }
}
