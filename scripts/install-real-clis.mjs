#!/usr/bin/env node
// Installs the real agent CLIs pinned in test/real/clis.json (or, with --latest, the newest versions the registry
// serves) into a cache directory OUTSIDE the repository — never globally — and prints where each binary is as JSON.
// A cached install is reused when its completion marker is there. Every auto-updater and telemetry switch is off.
//
//   node scripts/install-real-clis.mjs [--latest] [--only codex,opencode] [--json]
//
// Cache root: $MAM_REAL_CLI_CACHE, else ~/.cache/mam-real-clis. One directory per <name>@<version>.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(repo, 'test/real/clis.json'), 'utf8'));

/** The environment every install and every CLI run gets: no updater, no telemetry, no nonessential traffic. */
export const quietEnv = {
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_BUG_COMMAND: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_SHARE: '1',
  NO_UPDATE_NOTIFIER: '1',
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};

export function cacheRoot(env = process.env) {
  const fromEnv = env.MAM_REAL_CLI_CACHE;
  const root = fromEnv && fromEnv.length > 0 ? resolve(fromEnv) : join(homedir(), '.cache', 'mam-real-clis');
  if (root === repo || root.startsWith(repo + '/')) throw new Error(`the real-CLI cache must be outside the repository: ${root}`);
  return root;
}

function npm(args, cwd) {
  return execFileSync('npm', args, { cwd, env: { ...process.env, ...quietEnv }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The newest version the registry serves for a package. */
export function latestVersion(pkg) {
  return JSON.parse(npm(['view', pkg, 'version', '--json'], cacheRoot()));
}

/** Installs one package at one version into its own cache dir (reused when complete) and returns its directory. */
export function installPackage(pkg, version) {
  const dir = join(cacheRoot(), `${pkg.replace('/', '+')}@${version}`);
  const marker = join(dir, '.mam-complete');
  if (existsSync(marker)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mam-real-cli-cache', private: true }) + '\n');
  // cwd is the cache dir: npm otherwise may read `name@version` as a folder.
  npm(['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${version}`], dir);
  const installed = JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  if (installed !== version) throw new Error(`${pkg}: asked for ${version}, npm installed ${installed}`);
  writeFileSync(marker, `${pkg}@${version}\n`);
  return dir;
}

/** Installs every CLI of the manifest (pinned, or the newest with latest) and returns name → { package, version, bin, dir }. */
export function installRealClis({ latest = false, only } = {}) {
  mkdirSync(cacheRoot(), { recursive: true });
  const out = {};
  for (const [name, cli] of Object.entries(manifest.clis)) {
    if (only && !only.includes(name)) continue;
    const version = latest ? latestVersion(cli.package) : cli.version;
    const dir = installPackage(cli.package, version);
    const entry = { package: cli.package, version, pinned: cli.version, bin: join(dir, 'node_modules', '.bin', cli.bin), dir };
    // OpenCode npm-installs its plugin package into the config dir on first run (about a minute, in the background,
    // writing into the sandbox while tests snapshot it): install it once here so each sandbox gets a copy.
    if (name === 'opencode') entry.pluginDir = installPackage('@opencode-ai/plugin', version);
    out[name] = entry;
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const onlyArg = args.find((a) => a.startsWith('--only='));
  const only = onlyArg ? onlyArg.slice('--only='.length).split(',') : undefined;
  const result = installRealClis({ latest: args.includes('--latest'), only });
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
}
