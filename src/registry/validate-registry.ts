import type { z } from 'zod';
import type { AgentCatalog } from '../agents/outside-agents.js';
import { BUILTIN_CATALOG, hasOutside } from './registry-agents.js';
import { findUnsupported } from './plain-data.js';
import type { RegistryIssue } from './registry-issue.js';
import { rowSurelyValid } from './row-fast-check.js';
import type { InvalidRow, RegistryState } from './registry-state.js';
import { type SessionRow, SessionRowSchema } from './session-row.js';
import { isPlainObject } from './yaml-emit.js';

/**
 * The outcome of validating a parsed registry document.
 * @public
 */
export interface ValidatedDocument {
  /** The state with the valid rows only. */
  state: RegistryState;
  /** Problems of the file as a whole (always fatal). */
  fileIssues: RegistryIssue[];
  invalidRows: InvalidRow[];
  /** Which of the two lists the file itself had. */
  present: { herdr_sessions: boolean; orchestrator_uuids: boolean };
}

function show(v: unknown): string {
  const s = v === undefined ? 'nothing' : JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function kindOf(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  return isPlainObject(v) ? 'a mapping' : `a ${typeof v}`;
}

function fieldIssue(issue: z.core.$ZodIssue, row: Record<string, unknown>, label: string, index: number, agents: AgentCatalog<string>): RegistryIssue {
  const field = issue.path.map(String).join('.');
  let found: unknown = row;
  for (const p of issue.path) found = isPlainObject(found) ? found[String(p)] : undefined;
  if (field === 'agent' && issue.code === 'invalid_value') {
    const message = `row ${label}: unknown agent ${show(found)} in field agent (expected one of ${agents.names.join(', ')})`;
    return { problem: 'unknown-agent', message, row: label, index, field };
  }
  return { problem: 'invalid-field', message: `row ${label}: field ${field}: ${issue.message}, found ${show(found)}`, row: label, index, field };
}

// A row of an outside agent (or carrying an outside own key): the schema checks the row without its outside `agent`,
// and each outside own key is checked here as the schema checks a built-in's (a string, null or absent).
function outsideIssues(row: Record<string, unknown>, label: string, index: number, agents: AgentCatalog<string>): RegistryIssue[] {
  const named = row['agent'];
  const outside = typeof named === 'string' && agents.outside(named) !== undefined;
  const rest = outside ? Object.fromEntries(Object.entries(row).filter(([k]) => k !== 'agent')) : row;
  const issues = rowSurelyValid(rest) ? [] : (SessionRowSchema.safeParse(rest).error?.issues ?? []).map((i) => fieldIssue(i, row, label, index, agents));
  for (const key of agents.ownKeys.slice(BUILTIN_CATALOG.ownKeys.length)) {
    const v = row[key];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      issues.push({ problem: 'invalid-field', message: `row ${label}: field ${key}: expected a string or null, found ${show(v)}`, row: label, index, field: key });
    }
  }
  return issues;
}

/**
 * Every problem of one row (not counting duplicate names); `plain` skips the check for non-plain values (a Date, …);
 * `agents` are the agents a row may name (the built-ins unless the registry was given outside agents).
 * @public
 */
export function rowIssues(row: unknown, index: number, plain = false, agents: AgentCatalog<string> = BUILTIN_CATALOG): RegistryIssue[] {
  const name = isPlainObject(row) && typeof row['name'] === 'string' && row['name'] !== '' ? row['name'] : undefined;
  const label = name ?? `#${index}`;
  if (!isPlainObject(row)) {
    return [{ problem: 'row-not-a-mapping', message: `row ${label} of herdr_sessions is ${kindOf(row)}, not a mapping`, row: label, index }];
  }
  const odd = plain ? null : findUnsupported(row);
  if (odd !== null) {
    return [{ problem: 'unsupported-value', message: `row ${label}: field ${odd.at} holds ${odd.what}`, row: label, index, field: odd.at }];
  }
  if (hasOutside(agents)) return outsideIssues(row, label, index, agents);
  // The common case costs no zod run; zod still decides (and words) every row the cheap check is unsure of.
  if (rowSurelyValid(row)) return [];
  const parsed = SessionRowSchema.safeParse(row);
  return parsed.success ? [] : parsed.error.issues.map((i) => fieldIssue(i, row, label, index, agents));
}

/**
 * The issue of a row whose name an earlier row already has.
 * @public
 */
export function duplicateIssue(name: string, index: number, first: number): RegistryIssue {
  const message = `duplicate row name ${JSON.stringify(name)} (herdr_sessions[${first}] and herdr_sessions[${index}])`;
  return { problem: 'duplicate-name', message, row: name, index, field: 'name' };
}

function listOf(doc: Record<string, unknown>, key: string, issues: RegistryIssue[]): unknown[] {
  const v = doc[key];
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  issues.push({ problem: 'not-a-list', message: `${key} is ${kindOf(v)}, not a list`, field: key });
  return [];
}

/**
 * Validates a parsed document: file-level problems, then each row (a lenient reader keeps the valid rows); `plain`
 * says the document is plain data by construction; `agents` as for {@link rowIssues}.
 * @public
 */
export function validateDocument(doc: unknown, opts: { plain?: boolean; agents?: AgentCatalog<string> } = {}): ValidatedDocument {
  const fileIssues: RegistryIssue[] = [];
  const invalidRows: InvalidRow[] = [];
  const present = { herdr_sessions: false, orchestrator_uuids: false };
  const empty: RegistryState = { herdr_sessions: [], orchestrator_uuids: [] };
  if (doc === null || doc === undefined) return { state: empty, fileIssues: [{ problem: 'empty', message: 'the file is empty' }], invalidRows, present };
  if (!isPlainObject(doc)) {
    return { state: empty, fileIssues: [{ problem: 'not-a-mapping', message: `its top level is ${kindOf(doc)}, not a mapping` }], invalidRows, present };
  }
  present.herdr_sessions = Object.hasOwn(doc, 'herdr_sessions');
  present.orchestrator_uuids = Object.hasOwn(doc, 'orchestrator_uuids');
  const rawRows = listOf(doc, 'herdr_sessions', fileIssues);
  const orchestrators = listOf(doc, 'orchestrator_uuids', fileIssues);
  orchestrators.forEach((id, i) => {
    if (typeof id !== 'string') fileIssues.push({ problem: 'invalid-field', message: `orchestrator_uuids[${i}] is ${kindOf(id)}, not an id`, field: `orchestrator_uuids[${i}]` });
  });
  for (const key of Object.keys(doc)) {
    if (key === 'herdr_sessions' || key === 'orchestrator_uuids') continue;
    const odd = key === '__proto__' ? { at: 'the top level', what: 'a key named __proto__' } : findUnsupported(doc[key], key);
    if (odd !== null) fileIssues.push({ problem: 'unsupported-value', message: `${odd.at} holds ${odd.what}`, field: odd.at });
  }
  // Keys in the file's order; the two lists sit where the file had them (at the end when it had none).
  const top: Record<string, unknown> = {};
  for (const key of Object.keys(doc)) if (key !== '__proto__') top[key] = doc[key];
  const state = top as RegistryState;
  state.herdr_sessions = [];
  state.orchestrator_uuids = orchestrators.filter((id): id is string => typeof id === 'string');
  const firstIndex = new Map<string, number>();
  rawRows.forEach((row, index) => {
    const issues = rowIssues(row, index, opts.plain === true, opts.agents);
    const name = isPlainObject(row) && typeof row['name'] === 'string' ? row['name'] : undefined;
    const first = name === undefined ? undefined : firstIndex.get(name);
    if (name !== undefined && first !== undefined) issues.push(duplicateIssue(name, index, first));
    else if (name !== undefined) firstIndex.set(name, index);
    if (issues.length === 0) state.herdr_sessions.push(row as SessionRow);
    else invalidRows.push({ index, ...(name === undefined || name === '' ? {} : { name }), row, issues });
  });
  return { state, fileIssues, invalidRows, present };
}
