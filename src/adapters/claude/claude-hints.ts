import { join } from 'node:path';
import { psHint } from '../common/in-use.js';

// A hint is pasted into a shell by a person: anything but plain path characters is single-quoted (a NUL cannot be passed at all).
function quote(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll('\0', '').replaceAll("'", "'\\''")}'`;
}

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
