/**
 * The run room: agents put through task sets, k attempts per task, each in a fresh
 * session, judged by the task desk; results per attempt in the store, pass^k and the
 * rest added up from them.
 *
 *   selectTasks(catalog, patterns) → task ids;  planAttempts(taskIds, k, seed) → the order
 *   openRunEnvironment({ runId, settings, catalog, store, endpoint, faults, … }) → the attempts' environment,
 *     each attempt's session given its fault profile (the run's or its task's, seeded per attempt)
 *   executeRun(environment, run, planned, { concurrency, signal, progress }) → how the run ended
 *   performRun({ store, catalog, run, plan, … }) → both, then the summary
 *   summarize(…) / summaryText(summary) / resultRow(…) / writeRunHtml(file, …) / exportRun(…)
 */
export {
  type Agent,
  type AgentConversation,
  type AgentReply,
  type AgentTurn,
  type AttemptContext,
  type AttemptProblem,
  type ConversationEntry,
  declaresInfeasible,
  type Replied,
} from "./agent.js";
export {
  type AttemptEnvironment,
  type AttemptResult,
  type AttemptRun,
  type AttemptUsage,
  FEEDBACK_INTRO,
  feedbackMessage,
  runAttempt,
  type TryResult,
} from "./attempt.js";
export { CommandAgent, type CommandAgentOptions, fillPlaceholders, PLACEHOLDERS } from "./command-agent.js";
export {
  type AgentSettings,
  type EnvironmentInput,
  openRunEnvironment,
  type RunEnvironment,
  type RunSettings,
} from "./environment.js";
export { assignAttemptFaults, attemptFaults, attemptProfile, type RunFaults, runFaults } from "./faults.js";
export { writeRunHtml } from "./html.js";
export { agentInstructions, ModelAgent, type ModelAgentOptions, toFunctions } from "./model-agent.js";
export {
  describeAgent,
  type Performed,
  type PerformInput,
  performRun,
  priceMap,
  runModels,
  summaryOf,
} from "./perform.js";
export {
  attemptSessionName,
  type PlannedAttempt,
  planAttempts,
  samplingSeed,
  selectTasks,
  type TaskSelection,
} from "./plan.js";
export { ProgressLine, type ProgressOptions } from "./progress.js";
export {
  attemptCost,
  choose,
  type PassRates,
  type Price,
  type RunModels,
  type RunSummary,
  resultRow,
  summarize,
  type TaskFigures,
} from "./results.js";
export { executeRun, type RunEnd, type RunnerOptions, resultOf, storedResults } from "./runner.js";
export { type PlanRead, readPlan, type StoredPlan } from "./stored.js";
export { percent, summaryText } from "./summary-text.js";
export { exportRun } from "./training.js";
export {
  AGENT_GREETING,
  ScriptedUser,
  SimulatedUser,
  STOP_SIGNAL,
  type User,
  type UserMove,
  userInstructions,
} from "./user.js";
