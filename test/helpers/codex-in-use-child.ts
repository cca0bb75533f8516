// Run as a child (test/helpers/ts-child.ts) with MAM_CTX (a HomeDiscoveryContext as JSON) and MAM_ID in its environment
// (not on its command line, where the check would find the id): prints whether the codex adapter, on its default ports,
// finds conversation MAM_ID in use. The caller's own session variables come from this process's environment.
import { getAdapter } from '../../src/agents/get-adapter.js';
import type { HomeDiscoveryContext } from '../../src/agents/types.js';

const ctx = JSON.parse(process.env['MAM_CTX'] ?? '{}') as HomeDiscoveryContext;
process.stdout.write(`${String(await getAdapter('codex').conversationInUse(process.env['MAM_ID'] ?? '', ctx))}\n`);
