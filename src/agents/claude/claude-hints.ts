import { join } from 'node:path';
import { psHint, shellQuote as quote } from '../common/in-use.js';

/**
 * The commands a person runs to see what holds a Claude conversation: the real `sessions/` dir first (the live-session files
 * and the one naming the id), then every process naming it; an implausible id is quoted, never pasted raw.
 * @public
 */
export function claudeInUseHints(config: string, id: string): string[] {
  const sessions = join(config, 'sessions');
  const q = quote(id);
  return [`ls -l ${quote(sessions)}/`, `grep -l ${q} ${quote(sessions)}/*.json`, q === id ? psHint(id) : `ps -axww | grep -F -- ${q}`];
}
