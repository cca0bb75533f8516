// One sandbox per CLI: a root with HOME (every XDG_* and TMPDIR under it) and two git workspaces, nothing inherited
// from the caller's environment (an outer agent session's CLAUDE_*, CODEX_*, OPENCODE* never leak in).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quietEnv } from './real-clis.js';

export interface RealSandbox {
  root: string;
  home: string;
  tmp: string;
  wsA: string;
  wsB: string;
  env: Record<string, string>;
  dispose(): void;
}

const gitInit = (dir: string): void => {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { PATH: process.env['PATH'] ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1' } });
  git('init', '-q');
  writeFileSync(join(dir, 'README.md'), `workspace ${dir}\n`);
  git('add', '.');
  git('-c', 'user.name=mam', '-c', 'user.email=mam@example.invalid', 'commit', '-qm', 'init');
};

export function makeSandbox(name: string, extraEnv: Record<string, string> = {}): RealSandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `mam-real-${name}-`)));
  const home = join(root, 'home');
  const tmp = join(home, 'tmp');
  for (const d of [tmp, join(home, '.config'), join(home, '.local/share'), join(home, '.local/state'), join(home, '.cache')]) mkdirSync(d, { recursive: true });
  const wsA = join(root, 'ws-a');
  const wsB = join(root, 'ws-b');
  gitInit(wsA);
  gitInit(wsB);
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    USER: process.env['USER'] ?? 'root',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    SHELL: '/bin/bash',
    TMPDIR: tmp,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    ...quietEnv,
    ...extraEnv,
  };
  return { root, home, tmp, wsA, wsB, env, dispose: () => rmSync(root, { recursive: true, force: true }) };
}
