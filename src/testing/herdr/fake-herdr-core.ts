import { fakeHerdrAgentCommands } from './fake-herdr-core-agents.js';
import { fakeHerdrAnswer } from './fake-herdr-core-answer.js';
import { fakeHerdrArgs } from './fake-herdr-core-args.js';
import { fakeHerdrBase } from './fake-herdr-core-base.js';
import { fakeHerdrModel } from './fake-herdr-core-model.js';
import { fakeHerdrPaneCommands } from './fake-herdr-core-panes.js';
import { fakeHerdrProcs } from './fake-herdr-core-procs.js';
import { fakeHerdrStore } from './fake-herdr-core-store.js';
import { fakeHerdrViews } from './fake-herdr-core-views.js';
import { fakeHerdrWaits } from './fake-herdr-core-waits.js';

/**
 * The fake herdr's one implementation, assembled from self-contained parts that reach each other only through this object.
 * @public
 */
export interface FakeHerdrLib {
  base: ReturnType<typeof fakeHerdrBase>;
  model: ReturnType<typeof fakeHerdrModel>;
  views: ReturnType<typeof fakeHerdrViews>;
  args: ReturnType<typeof fakeHerdrArgs>;
  panes: ReturnType<typeof fakeHerdrPaneCommands>;
  agents: ReturnType<typeof fakeHerdrAgentCommands>;
  procs: ReturnType<typeof fakeHerdrProcs>;
  waits: ReturnType<typeof fakeHerdrWaits>;
  answer: ReturnType<typeof fakeHerdrAnswer>;
  store: ReturnType<typeof fakeHerdrStore>;
}

type Part = { [K in keyof FakeHerdrLib]: readonly [K, (lib: FakeHerdrLib) => FakeHerdrLib[K]] }[keyof FakeHerdrLib];

// Each part is a function whose source text stands alone, so the executable can embed it verbatim.
const PARTS: readonly Part[] = [
  ['base', fakeHerdrBase],
  ['model', fakeHerdrModel],
  ['views', fakeHerdrViews],
  ['args', fakeHerdrArgs],
  ['panes', fakeHerdrPaneCommands],
  ['agents', fakeHerdrAgentCommands],
  ['procs', fakeHerdrProcs],
  ['waits', fakeHerdrWaits],
  ['answer', fakeHerdrAnswer],
  ['store', fakeHerdrStore],
];

/**
 * Builds the fake herdr's implementation in this process, exactly as the executable builds it from the same text.
 * @public
 */
export function buildFakeHerdrCore(): FakeHerdrLib {
  const lib: Partial<FakeHerdrLib> = {};
  for (const [name, make] of PARTS) (lib as Record<string, unknown>)[name] = make(lib as FakeHerdrLib);
  return lib as FakeHerdrLib;
}

/**
 * JavaScript text that defines `lib` the way {@link buildFakeHerdrCore} does, from the parts' own source.
 * @public
 */
export function fakeHerdrCoreSource(): string {
  const parts = PARTS.map(([name, make]) => `  [${JSON.stringify(name)}, (${make.toString()})],`).join('\n');
  // esbuild's keepNames (tsx, some test runners) wraps inner functions in `__name(fn, "fn")`: a no-op here.
  return `var __name = (target, _value) => target;\nconst PARTS = [\n${parts}\n];\nconst lib = {};\nfor (const [name, make] of PARTS) lib[name] = make(lib);\n`;
}
