import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopGuard } from '../../src/loop/loop-guard.js';
import { recordedId } from '../../src/registry/row-agent.js';
import { resetSpecPath } from '../../src/reset/index.js';
import { treeSnapshot } from '../helpers/reset-kit.js';
import { hookHerdr, resetSandbox, spyCalls } from '../helpers/reset-sandbox.js';

describe('reset run end to end (fake herdr executable, fake agents)', () => {
  let k: Awaited<ReturnType<typeof resetSandbox>>;
  beforeAll(async () => {
    k = await resetSandbox([
      { name: 'reviewer-claude-01', agent: 'claude', role: 'planner,reviewer', herdrWorkspace: 'lbl-a' },
      { name: 'reviewer-claude-02', agent: 'claude', role: 'reviewer', herdrWorkspace: 'lbl-b' },
    ]);
  }, 60_000);
  afterAll(async () => {
    await k?.dispose();
  });

  it('--dry-run lists every spec field and touches neither .mam nor herdr', async () => {
    const mam = join(k.sb.workspace, '.mam');
    const before = await treeSnapshot(mam);
    const calls = spyCalls(k.sb).length;
    const out = await k.planner().run({ dryRun: true });
    expect(out.exitCode).toBe(0);
    const [a] = k.sb.sessions;
    expect(out.message).toContain('target: reviewer-claude-01 agent=claude role=planner,reviewer herdr_server=');
    expect(out.message).toContain(`old_id=${a?.id ?? '?'}`);
    expect(out.message).toContain('herdr_workspace=lbl-a');
    expect(await treeSnapshot(mam)).toEqual(before);
    expect(spyCalls(k.sb).length).toBe(calls);
  });

  it('writes the spec before the first stop, resets one target after another, purges the old conversations, and cleans up', async () => {
    const probe = join(k.root, 'spec-at-first-close');
    const loopProbe = join(k.root, 'loop-during-run');
    const spec = resetSpecPath(k.sb.workspace);
    await hookHerdr(k.sb, 'pane close', `[ -e '${probe}' ] || { cat '${spec}' > '${probe}' 2>/dev/null || echo missing > '${probe}'; }`);
    const old = k.sb.sessions.map((s) => s.id);
        const start = spyCalls(k.sb).length;
    const trace: string[] = [];
    let loopRefusal = '';
    const out = await k.planner().run({
      yes: true,
      onTrace: (l) => {
        trace.push(l);
        if (loopRefusal === '' && existsSync(spec)) {
          void new LoopGuard(k.sb.workspace, { ports: k.sb.ports() }).acquire({ holder: 'probe' }).then(async (g) => {
            if (g.kind === 'refused') loopRefusal = g.message;
            else await g.guard.release();
          });
        }
      },
    });
    expect(out.exitCode, `${out.table}\n${trace.join('\n')}`).toBe(0);
    // The spec existed, with both targets, at the first pane close.
    const atClose = JSON.parse(readFileSync(probe, 'utf8')) as { version: number; agents: { name: string }[] };
    expect(atClose.version).toBe(1);
    expect(atClose.agents.map((a) => a.name)).toEqual(['reviewer-claude-01', 'reviewer-claude-02']);
    // Strictly one after another: close A → start A → close B → start B.
    const events: string[] = [];
    const panes = Object.fromEntries(k.sb.sessions.map((s) => [s.paneId, s.name]));
    for (const raw of spyCalls(k.sb).slice(start)) {
      const argv = raw[0] === '--session' ? raw.slice(2) : raw;
      const verb = argv.slice(0, 2).join(' ');
      if (verb === 'pane close') events.push(`close ${panes[argv[2] ?? ''] ?? argv[2]}`);
      if (verb === 'agent start') events.push(`start ${argv.find((x) => x.startsWith('reviewer-')) ?? '?'}`);
    }
    expect(events).toEqual(['close reviewer-claude-01', 'start reviewer-claude-01', 'close reviewer-claude-02', 'start reviewer-claude-02']);
    // New rows: same name, role, herdr workspace; new ids; old transcripts gone.
    const rows = (await k.sb.registry.snapshot()).herdr_sessions;
    expect(rows.map((r) => r.name)).toEqual(['reviewer-claude-01', 'reviewer-claude-02']);
    expect(rows.map((r) => r.role)).toEqual(['planner,reviewer', 'reviewer']);
    expect(rows.map((r) => r.herdr_workspace)).toEqual(['lbl-a', 'lbl-b']);
    const fresh = rows.map((r) => recordedId(r));
    expect(fresh.every((id, i) => id !== null && id !== old[i])).toBe(true);
    const projects = join(k.sb.home, '.claude', 'projects');
    const leftovers = existsSync(projects) ? readdirSync(projects, { recursive: true }).map(String) : [];
    for (const id of old) expect(leftovers.some((f) => f.includes(id))).toBe(false);
    for (const id of fresh) expect(id !== null && leftovers.some((f) => f.includes(id))).toBe(true);
    const lines = out.table.split('\n');
    expect(lines[1]?.split(/\s+/)).toEqual(['reviewer-claude-01', 'claude', old[0], fresh[0], 'yes', 'yes', 'done']);
    expect(lines[2]?.split(/\s+/)).toEqual(['reviewer-claude-02', 'claude', old[1], fresh[1], 'yes', 'yes', 'done']);
    // Trace lines name the target and never carry a conversation id.
    expect(trace.length).toBeGreaterThan(0);
    for (const l of trace) {
      expect(l).toMatch(/^reset \[reviewer-claude-0[12]\]: /);
      for (const id of [...old, ...fresh]) expect(l).not.toContain(id ?? '<none>');
    }
    expect(loopRefusal).toContain('Another multi-agent-mux-loop is already running');
    expect(existsSync(spec)).toBe(false);
    expect(existsSync(join(k.sb.workspace, '.mam', 'loop-guard-active'))).toBe(false);
    writeFileSync(probe, '');
  }, 90_000);
});
