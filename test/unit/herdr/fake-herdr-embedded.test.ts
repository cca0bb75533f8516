import * as vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildFakeHerdrCore, fakeHerdrCoreSource, type FakeHerdrLib } from '../../../src/testing/herdr/fake-herdr-core.js';
import { createFakeHerdrState, editFakeHerdrState } from '../../../src/testing/herdr/fake-herdr-editor.js';
import { fakeHerdrScriptText } from '../../../src/testing/herdr/install-fake-herdr.js';

// The executable's copy, evaluated in an empty context: it can reach nothing but its own text.
function embeddedCore(): FakeHerdrLib {
  return vm.runInNewContext(`${fakeHerdrCoreSource()}\nlib;`, {}) as FakeHerdrLib;
}

const SCRIPT: string[][] = [
  ['status', 'server', '--json'],
  ['--session', 'work', 'workspace', 'create', '--cwd', '/repo', '--label', 'repo', '--env', 'A=1'],
  ['--session', 'work', 'workspace', 'list'],
  ['--session', 'work', 'pane', 'list'],
  ['--session', 'work', 'agent', 'start', 'rev', '--kind', 'claude', '--pane', 'w2:p1', '--', '--resume'],
  ['--session', 'work', 'agent', 'start', 'rev', '--kind', 'codex', '--pane', 'w1:p1'],
  ['--session', 'work', 'agent', 'prompt', 'rev', 'hello there', '--wait', '--until', 'idle', '--timeout', '1000'],
  ['--session', 'work', 'agent', 'get', 'rev'],
  ['--session', 'work', 'agent', 'read', 'rev', '--lines', '2'],
  ['--session', 'work', 'agent', 'send-keys', 'rev', 'esc', 'bogus-key'],
  ['--session', 'work', 'pane', 'process-info', '--pane', 'w1:p1'],
  ['--session', 'work', 'agent', 'wait', 'rev', '--until', 'blocked', '--timeout', '0'],
  ['--session', 'work', 'pane', 'close', 'w1:p1'],
  ['--session', 'nope', 'agent', 'list'],
  ['agent', 'start', 'Bad', '--kind', 'claude', '--pane', 'w1:p1'],
  ['agent', 'bogus'],
];

describe('one implementation: the executable embeds the very code FakeHerdr runs', () => {
  it('the embedded copy answers a whole session exactly like the in-process one', () => {
    const mine = buildFakeHerdrCore();
    const theirs = embeddedCore();
    const start = createFakeHerdrState({ sessions: ['work'] });
    editFakeHerdrState(start).addAgent({ session: 'work', name: 'old', kind: 'codex', status: 'working', buffer: 'a\nb\nc\n' });
    let a = start;
    let b = JSON.parse(JSON.stringify(start)) as typeof start;
    let now = 1_000;
    for (const argv of SCRIPT) {
      now += 10;
      mine.answer.beginCall(a);
      theirs.answer.beginCall(b);
      const ra = mine.answer.answer(a, argv, now, {});
      const rb = theirs.answer.answer(b, argv, now, {});
      expect(JSON.parse(JSON.stringify(rb.outcome)), argv.join(' ')).toEqual(JSON.parse(JSON.stringify(ra.outcome)));
      a = ra.state;
      b = rb.state;
    }
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('the script carries the parts and its process shell, with the config baked in', () => {
    const text = fakeHerdrScriptText({ statePath: '/s.json', spyLogPath: null, hook: { atCall: 3, command: 'true' }, pollMs: 25 });
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    for (const part of ['fakeHerdrBase', 'fakeHerdrModel', 'fakeHerdrWaits', 'fakeHerdrAnswer', 'fakeHerdrStore', 'fakeHerdrScriptMain']) expect(text).toContain(part);
    expect(text).toContain('{"statePath":"/s.json","spyLogPath":null,"hook":{"atCall":3,"command":"true"},"pollMs":25}');
    expect(() => new vm.Script(text.replace(/^#!.*\n/, ''))).not.toThrow();
  });
});
