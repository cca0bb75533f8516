// mam discover <agent> --workspace WS [--home DIR] [--epoch S] [--agents MODULE] [--json] → the agent's conversations in WS, newest first.
import { agentArg, type Io, noMore, runCommand } from './cli-kit.js';
import { getAdapter } from '../../agents/get-adapter.js';
import { outsideAdapter } from '../../agents/outside-agents.js';
import type { AgentName } from '../../ids/agent-names.js';
import { loadAgentsOption } from './agents-option.js';

/** `mam discover`: one id a line, or `{"kind":"discovered","agent","workspace","ids"}`; exit 0, 1 a store error, 2 usage. */
export function discoverCommand(argv: string[], io: Io): Promise<number> {
  return runCommand('discover', argv, io, async (ctx) => {
    const given = ctx.str('agents');
    const agents = given === undefined ? [] : await loadAgentsOption(given);
    const agent = agentArg(ctx.positionals[0], '<agent>', agents.map((d) => d.name));
    const outside = agents.find((d) => d.name === agent);
    noMore(ctx.positionals, 1);
    const epoch = ctx.number('epoch');
    const workspace = await ctx.workspace(true);
    const adapter = outside === undefined ? getAdapter(agent as AgentName) : outsideAdapter(ctx.ports(), outside);
    const ids = await adapter.discover({ workspace, home: await ctx.home(), ...(epoch === undefined ? {} : { epoch }) });
    if (ctx.asJson) ctx.json({ kind: 'discovered', agent, workspace, ids });
    else io.stdout(ids.map((i) => `${i}\n`).join(''));
    return 0;
  });
}
