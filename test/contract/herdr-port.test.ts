import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { HerdrCli } from '../../src/node/herdr-cli.js';
import {
  createFakeHerdrState,
  FakeHerdr,
  installFakeHerdr,
  seedFakeHerdrState,
  updateFakeHerdrState,
  type FakeHerdrState,
} from '../../src/testing/herdr/index.js';
import { herdrPause, herdrRealClock } from '../helpers/herdr-real-clock.js';
import { herdrTempDir } from '../helpers/herdr-temp.js';
import { herdrPortContract, type HerdrContractHarness } from './herdr-port.contract.js';

const names = { session: 'contract-a', otherSession: 'contract-b', stoppedSession: 'contract-stopped' };

function startingState(): FakeHerdrState {
  return createFakeHerdrState({ sessions: [names.session, names.otherSession] });
}

herdrPortContract('FakeHerdr in-process', async () => {
  const tmp = await herdrTempDir('contract-inproc');
  let fake = new FakeHerdr({ clock: herdrRealClock(), state: startingState() });
  const harness: HerdrContractHarness = {
    // A fresh fake per test: the getter hands out the current one.
    get port() {
      return fake;
    },
    names,
    cwd: tmp.dir,
    reset: async () => {
      fake = new FakeHerdr({ clock: herdrRealClock(), state: startingState() });
    },
    edit: async (fn) => fake.edit(fn),
    teardown: tmp.remove,
  };
  return harness;
});

herdrPortContract('HerdrCli over the fake herdr executable', async () => {
  const tmp = await herdrTempDir('contract-exe');
  const statePath = join(tmp.dir, 'herdr-state.json');
  const installed = await installFakeHerdr(join(tmp.dir, 'bin'), { statePath, state: startingState() });
  return {
    port: new HerdrCli({ bin: installed, env: { HERDR_SESSION: undefined } }),
    names,
    cwd: tmp.dir,
    reset: async () => {
      await seedFakeHerdrState(statePath, startingState());
    },
    edit: (fn) => updateFakeHerdrState(statePath, fn),
    teardown: tmp.remove,
  };
});

function herdrOnPath(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, 'herdr');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const realHerdr = herdrOnPath();

// A real herdr: two headless named servers in a private config dir, so the user's own servers are never touched.
herdrPortContract(
  'HerdrCli over a real herdr',
  async () => {
    const tmp = await herdrTempDir('contract-real');
    const env = { XDG_CONFIG_HOME: tmp.dir, HERDR_SOCKET_PATH: undefined, HERDR_SESSION: undefined };
    const childEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) childEnv[k] = v;
    const servers: ChildProcess[] = [names.session, names.otherSession].map((name) =>
      spawn(realHerdr as string, ['--session', name, 'server'], { env: childEnv, stdio: 'ignore', detached: true }),
    );
    const port = new HerdrCli({ bin: realHerdr as string, env });
    for (const session of [names.session, names.otherSession]) {
      for (let i = 0; i < 150; i += 1) {
        const st = await port.serverStatus({ session });
        if (st.kind === 'ok' && st.value.running) break;
        await herdrPause(100);
      }
    }
    const reset = async (): Promise<void> => {
      for (const session of [names.session, names.otherSession]) {
        const list = await port.workspaceList({ session });
        if (list.kind === 'ok') for (const w of list.value) await port.workspaceClose(w.workspace_id, { session });
      }
    };
    return {
      port,
      names,
      cwd: tmp.dir,
      reset,
      teardown: async () => {
        for (const child of servers) if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
        await tmp.remove();
      },
    };
  },
  realHerdr === undefined ? { skip: 'no herdr binary on PATH' } : {},
);
