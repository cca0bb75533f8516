export { runAgentContract, describeAgentContract } from './run-agent-contract.js';
export {
  AGENT_CONTRACT_LAWS,
  type AgentContractLaw,
  type AgentContractLawResult,
  type AgentContractOptions,
  type AgentContractPurgeService,
  type AgentContractReport,
  type AgentContractRunner,
  type AgentContractStage,
  type StageLayout,
} from './types.js';
