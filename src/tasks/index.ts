export {
  CHECKLIST_STATUSES,
  type ChecklistInput,
  type ChecklistItemVerdict,
  type ChecklistJudge,
  type ChecklistStatus,
  LlmChecklistJudge,
} from "./checklist.js";
export {
  type ArgumentDifference,
  type CompareOptions,
  compareArguments,
  normalizeToolName,
  sameValue,
  type TextJudge,
} from "./compare.js";
export {
  type DeskResult,
  type StartedTask,
  TaskDesk,
  type TaskDeskOptions,
  type TaskSummary,
} from "./desk.js";
export { chooseDistractors } from "./distractors.js";
export { attemptVersions, episodeCalls } from "./episode.js";
export { type ExportOptions, exportOpenAi, type OpenAiExample, type Reward } from "./export.js";
export { feedbackText } from "./feedback.js";
export { FREE_TEXT_THRESHOLD, isFreeText, sameText, type TextOverlap, textOverlap } from "./free-text.js";
export {
  type ExtraCall,
  type GoldenInput,
  type GoldenStep,
  type GoldenVerdict,
  judgeGolden,
} from "./golden.js";
export {
  type TaskPrompt,
  type TaskPromptMessages,
  type TaskPromptResult,
  TURN_ARGUMENT,
  taskPrompt,
  taskPrompts,
  turnChoices,
} from "./prompts.js";
export {
  buildReport,
  type PatternFigure,
  patternFigures,
  reportText,
  type SessionReport,
  type TimelineEntry,
  verdictLine,
} from "./report.js";
export {
  escapeHtml,
  faultCountsHtml,
  type PageExtras,
  REPORT_STYLE,
  reportHtml,
  type SpokenEntry,
} from "./report-html.js";
export { type JudgeContext, judgeSession, type SessionVerdict } from "./session-judge.js";
export {
  MAX_DISTRACTORS,
  planTaskStart,
  type TaskStart,
  type TaskStartResult,
  unknownTaskMessage,
} from "./start.js";
export {
  type ChecklistOutcome,
  type JudgeInput,
  type JudgeMode,
  judgeTask,
  type TaskVerdict,
} from "./verdict.js";
