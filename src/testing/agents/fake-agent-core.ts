import { buildEmbeddedLib, type EmbeddedPart, embeddedLibSource } from '../embedded-lib.js';
import { fakeAgentAgy } from './fake-agent-agy.js';
import { fakeAgentBase } from './fake-agent-base.js';
import { fakeAgentClaude } from './fake-agent-claude.js';
import { fakeAgentCodex } from './fake-agent-codex.js';
import { fakeAgentGemini } from './fake-agent-gemini.js';
import { fakeAgentHermes } from './fake-agent-hermes.js';
import { fakeAgentOpencode } from './fake-agent-opencode.js';

/**
 * The fake agent's one implementation, assembled from self-contained parts that reach each other only through this object.
 * @public
 */
export interface FakeAgentLib {
  base: ReturnType<typeof fakeAgentBase>;
  claude: ReturnType<typeof fakeAgentClaude>;
  codex: ReturnType<typeof fakeAgentCodex>;
  opencode: ReturnType<typeof fakeAgentOpencode>;
  agy: ReturnType<typeof fakeAgentAgy>;
  hermes: ReturnType<typeof fakeAgentHermes>;
  gemini: ReturnType<typeof fakeAgentGemini>;
}

// Each part is a function whose source text stands alone, so the executable can embed it verbatim.
const PARTS: readonly EmbeddedPart<FakeAgentLib>[] = [
  ['base', fakeAgentBase],
  ['claude', fakeAgentClaude],
  ['codex', fakeAgentCodex],
  ['opencode', fakeAgentOpencode],
  ['agy', fakeAgentAgy],
  ['hermes', fakeAgentHermes],
  ['gemini', fakeAgentGemini],
];

/**
 * Builds the fake agent's implementation in this process, exactly as the executable builds it from the same text.
 * @public
 */
export function buildFakeAgentCore(): FakeAgentLib {
  return buildEmbeddedLib(PARTS);
}

/**
 * JavaScript text that defines `lib` the way {@link buildFakeAgentCore} does, from the parts' own source.
 * @public
 */
export function fakeAgentCoreSource(): string {
  return embeddedLibSource(PARTS);
}
