// The helper chain stops at the nearest agent CLI ancestor, told by its executable's name (src/process/agent-cli-name.ts,
// below the agents): every built-in agent's CLI must be one it knows. The session variables the in-use check reads
// (src/process/session-env-vars.ts, below the agents too) are the definitions' own.
import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../../src/agents/builtin.js';
import { SESSION_ENV_VARS } from '../../../src/ids/agent-names.js';
import { AGENT_CLI_NAMES, agentCliName } from '../../../src/process/agent-cli-name.js';
import { BUILTIN_SESSION_ENV_VARS } from '../../../src/process/session-env-vars.js';

describe('agent CLI names', () => {
  it('name every built-in agent', () => {
    for (const d of BUILTIN_AGENTS) expect(AGENT_CLI_NAMES.has(d.name), d.name).toBe(true);
  });
  it('the session variables every in-use check reads are the built-in definitions\' ones', () => {
    expect(BUILTIN_SESSION_ENV_VARS).toEqual(SESSION_ENV_VARS);
  });
  it('tell an agent CLI from anything else', () => {
    expect(agentCliName({ argv: ['/usr/bin/node', '/usr/local/bin/codex', 'resume'], command: 'node codex', comm: 'node' })).toBe('codex');
    expect(agentCliName({ argv: ['vim', 'x'], command: 'vim x', comm: 'vim' })).toBeNull();
  });
});
