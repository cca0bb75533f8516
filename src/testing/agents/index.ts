export { installFakeAgents, fakeAgentRunDir, FAKE_AGENT_MARKER, type InstallFakeAgentsOptions } from './install-fake-agents.js';
