// An idle TUI under its own tmux server (own socket), so a test never touches anyone else's tmux.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export interface TmuxTui {
  socket: string;
  capture(): string;
  send(...keys: string[]): void;
  panePid(): number;
  kill(): void;
}

export function startTui(root: string, cwd: string, env: Record<string, string>, argv: readonly string[]): TmuxTui {
  const socket = join(root, 'tmux.sock');
  const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: { PATH: env['PATH'] ?? '', HOME: env['HOME'] ?? '', TERM: 'xterm-256color', TMPDIR: env['TMPDIR'] ?? '/tmp' } });
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  tmux('new-session', '-d', '-s', 'tui', '-x', '200', '-y', '50', '-c', cwd, 'env', '-i', ...envArgs, ...argv);
  return {
    socket,
    capture: () => tmux('capture-pane', '-p', '-t', 'tui'),
    send: (...keys) => void tmux('send-keys', '-t', 'tui', ...keys),
    panePid: () => Number.parseInt(tmux('display-message', '-p', '-t', 'tui', '#{pane_pid}').trim(), 10),
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
