import { buildEmbeddedLib, type EmbeddedPart, embeddedLibSource } from '../embedded-lib.js';
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

// Each part is a function whose source text stands alone, so the executable can embed it verbatim.
const PARTS: readonly EmbeddedPart<FakeHerdrLib>[] = [
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
  return buildEmbeddedLib(PARTS);
}

/**
 * JavaScript text that defines `lib` the way {@link buildFakeHerdrCore} does, from the parts' own source.
 * @public
 */
export function fakeHerdrCoreSource(): string {
  return embeddedLibSource(PARTS);
}
