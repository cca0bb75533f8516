import type { ProcessInfo } from '../../ports/process.js';
import { agentCliName } from '../../process/agent-cli-name.js';

function basename(p: string): string {
  return p.split('/').filter((x) => x !== '').pop() ?? '';
}

/**
 * True for OpenCode's per-user background service (`opencode serve --service`): it holds the shared database for every
 * session, so holding it open says nothing about one conversation.
 * @public
 */
export function isOpencodeService(proc: Pick<ProcessInfo, 'argv' | 'command' | 'comm'> | undefined): boolean {
  if (proc === undefined || agentCliName(proc) !== 'opencode') return false;
  const argv = proc.argv ?? proc.command.split(/\s+/).filter((x) => x !== '');
  const at = argv.findIndex((a) => basename(a) === 'opencode');
  const args = at < 0 ? argv : argv.slice(at + 1);
  const sub = args.find((a) => !a.startsWith('-'));
  return sub === 'serve' && args.includes('--service');
}
