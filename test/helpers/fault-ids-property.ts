// Hostile ids through every adapter's purgeArtifacts / hasArtifacts / residualArtifacts, on stages holding real
// conversations: nothing is ever mutated, and an implausible id makes no filesystem call at all.
import fc from 'fast-check';
import { expect } from 'vitest';
import { getAdapter } from '../../src/agents/get-adapter.js';
import type { HomeDiscoveryContext } from '../../src/agents/types.js';
import { AGENT_NAMES, type AgentName } from '../../src/ids/agent-names.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { countingFs } from './fault-call-counter.js';
import { type FaultStage, FAULT_AGENTS, buildFaultStage } from './fault-stages.js';
import { strs } from './artifact-strings.js';

/** The stages the ids run against (grok, with no on-disk layout, uses the claude stage's home). */
export interface IdWorld {
  stages: Map<AgentName, FaultStage>;
  dispose(): Promise<void>;
}

/** Builds one stage per agent with an on-disk layout. */
export async function buildIdWorld(): Promise<IdWorld> {
  const stages = new Map<AgentName, FaultStage>();
  for (const agent of FAULT_AGENTS) stages.set(agent, await buildFaultStage(agent));
  return {
    stages,
    dispose: async () => {
      for (const s of stages.values()) await s.dispose();
    },
  };
}

const SUFFIXES = ['/..', '/../..', '/../../etc/passwd', '\n', '\0', ' ', '*', '?', '/', '.json', '.jsonl', '..', '\\..', '%2e%2e', '\u2028'];

/** Ids an attacker or a corrupt row could give: anything, near-misses of the stages' real ids, uuid and ses_ shapes. */
export function hostileIdArb(realIds: readonly string[]): fc.Arbitrary<string> {
  const near = fc
    .tuple(fc.constantFrom(...realIds), fc.constantFrom(...SUFFIXES), fc.boolean())
    .map(([id, s, before]) => (before ? `${s}${id}` : `${id}${s}`));
  return fc.oneof(
    { arbitrary: fc.string(), weight: 3 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 60 }), weight: 2 },
    { arbitrary: near, weight: 3 },
    { arbitrary: fc.constantFrom('', '.', '..', '/', '/etc/passwd', '*', 'ses_', 'memory', 'notes', '../x', '~', '$HOME'), weight: 1 },
    { arbitrary: fc.uuid().map((u) => (u.length % 2 === 0 ? u.toUpperCase() : u)), weight: 1 },
    { arbitrary: fc.stringMatching(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/), weight: 1 },
  );
}

function ctxOf(s: FaultStage): HomeDiscoveryContext {
  return { workspace: s.workspace, home: s.home, env: s.env };
}

// The oracle, kept apart from the library's own check: a uuid (any case) for every agent but OpenCode's `ses_` ids.
function plausible(agent: AgentName, id: string): boolean {
  return agent === 'opencode' ? /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/.test(id) : /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}

/** Runs the property for `numRuns` ids. */
export async function checkHostileIds(world: IdWorld, numRuns: number): Promise<void> {
  const realIds = [...world.stages.values()].map((s) => s.id);
  const stageOf = (agent: AgentName): FaultStage => {
    const s = world.stages.get(agent) ?? world.stages.get('claude');
    if (s === undefined) throw new Error('no stage');
    return s;
  };
  await fc.assert(
    fc.asyncProperty(hostileIdArb(realIds), fc.constantFrom(...AGENT_NAMES), async (id, agent) => {
      const stage = stageOf(agent);
      const counter = countingFs();
      const adapter = getAdapter(agent, { ports: { ...nodePorts({ env: stage.env }), fs: counter.fs } });
      const ctx = ctxOf(stage);
      const purged = strs(await adapter.purgeArtifacts(id, ctx));
      const has = await adapter.hasArtifacts(id, ctx);
      const residual = strs(await adapter.residualArtifacts(id, ctx));
      expect(counter.recording.mutations, `${agent} ${JSON.stringify(id)}`).toEqual([]);
      if (!plausible(agent, id)) {
        expect(counter.calls, `${agent} ${JSON.stringify(id)}`).toEqual([]);
        expect([purged, has, residual]).toEqual([[], false, []]);
      } else {
        // A plausible id that is no conversation of the stage (real ids are never generated as such) has nothing.
        expect(realIds.map((r) => r.toLowerCase())).not.toContain(id.toLowerCase());
        expect([purged, has, residual]).toEqual([[], false, []]);
      }
    }),
    { numRuns },
  );
}
