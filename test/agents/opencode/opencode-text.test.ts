// Pure pieces of the opencode adapter: the `debug paths` parser, the empty-input placeholder, the background-service rule.
import { describe, expect, it } from 'vitest';
import { getAdapter } from '../../../src/agents/get-adapter.js';
import { parseDebugPathsDb } from '../../../src/agents/opencode/debug-paths.js';
import { isOpencodeService } from '../../../src/agents/opencode/opencode-service.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';

describe('parseDebugPathsDb', () => {
  it('reads the db line of `opencode debug paths`', () => {
    const out = 'home       /home/me\ndata       /home/me/.local/share/opencode\ndb         /home/me/.local/share/opencode/opencode.db\nlog        /x\n';
    expect(parseDebugPathsDb(out)).toBe('/home/me/.local/share/opencode/opencode.db');
  });
  it('keeps spaces inside the path and strips colours', () => {
    expect(parseDebugPathsDb('\u001b[1mdb\u001b[0m   /home/a b/oc.db  \n')).toBe('/home/a b/oc.db');
  });
  it('no db line (1.x), a relative value, or a `dbx` key give null', () => {
    expect(parseDebugPathsDb('data /home/me/.local/share/opencode\n')).toBeNull();
    expect(parseDebugPathsDb('db relative/oc.db\n')).toBeNull();
    expect(parseDebugPathsDb('dbfile /x/oc.db\n')).toBeNull();
    expect(parseDebugPathsDb('')).toBeNull();
  });
});

describe('the empty-input placeholder', () => {
  const a = getAdapter('opencode');
  const re = a.inputPlaceholderPattern as RegExp;
  it('is `Ask anything… "<example>"` as a literal and as a full-line pattern', () => {
    expect(a.inputPlaceholder).toBe('Ask anything…');
    expect(re.test('Ask anything… "Fix broken tests"')).toBe(true);
    expect(re.test('  ┃  Ask anything… "What is the tech stack of this project?"   ┃')).toBe(true);
  });
  it('accepts an example a narrow box cut before its closing quote', () => {
    expect(re.test('Ask anything… "Fix a TODO in the codeb')).toBe(true);
  });
  it('reads a typed `Ask anything…` or other text as a draft', () => {
    for (const line of ['Ask anything…', 'Ask anything… ', 'Ask anything… ""', 'please Ask anything… "x"', 'Ask anything… "x" and more', 'ask anything… "x"']) {
      expect(re.test(line), line).toBe(false);
    }
  });
  it('names the resident child, the session variable and the lifecycle', () => {
    expect(a.residentChildren).toEqual(['opencode']);
    expect(a.sessionEnvVar).toBe('OPENCODE_SESSION_ID');
    expect(a.idLifecycle).toBe('post_discovered');
    expect(a.ownKey).toBe('opencode_session_id_own');
  });
});

describe('isOpencodeService', () => {
  const proc = async (argv: string[]) => (await new FakeProcessTable([{ pid: 5, argv }]).lookup(5)) ?? undefined;
  it('is true for `opencode serve --service`, however it is started', async () => {
    expect(isOpencodeService(await proc(['opencode', 'serve', '--service']))).toBe(true);
    expect(isOpencodeService(await proc(['/usr/local/bin/opencode', 'serve', '--port', '0', '--service']))).toBe(true);
    expect(isOpencodeService(await proc(['node', '/home/me/.opencode/bin/opencode', 'serve', '--service']))).toBe(true);
  });
  it('is false for the TUI, a plain serve, another program, or no process', async () => {
    expect(isOpencodeService(await proc(['opencode', '--auto', '--standalone']))).toBe(false);
    expect(isOpencodeService(await proc(['opencode', 'serve']))).toBe(false);
    expect(isOpencodeService(await proc(['opencode', 'run', 'serve', '--service']))).toBe(false);
    expect(isOpencodeService(await proc(['sqlite3', 'serve', '--service']))).toBe(false);
    expect(isOpencodeService(undefined)).toBe(false);
  });
});
