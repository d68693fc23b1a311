export {
  continuationOf,
  continueList,
  type Drift,
  drift,
  type Injection,
  inject,
  type Truncation,
  transientError,
  truncate,
} from "./answers.js";
export { BUILTIN_PROFILES, type BuiltinProfileName, isBuiltinProfile, NO_FAULTS } from "./builtin.js";
export {
  addFaultCounts,
  type CountedCall,
  type CountedOutcome,
  countFaults,
  emptyFaultCounts,
  type FaultCounts,
  type FaultTally,
  faultTable,
  injectedKinds,
  repeatedAppliedWrites,
} from "./count.js";
export { inverseNormal, type LatencyFault, latencyFor, spread, uniform } from "./draw.js";
export { canaryFor, INJECTION_PATTERNS, type InjectionPattern, injectionText } from "./injections.js";
export { type CallKey, type Draw, drawsFor, FaultPlan, type SessionKey } from "./plan.js";
export {
  type Access,
  accessOf,
  builtinProfile,
  parseFaultProfile,
  type ResolvedProfile,
  type ResolvedRule,
  resolveFaultProfile,
  resolveFaultSetting,
  type ToolFacts,
  taskFaultProblems,
} from "./profile.js";
export { type FaultError, type FaultRecord, faultMeta, faultOf } from "./record.js";
