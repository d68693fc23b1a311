export type { Computed } from "./computed.js";
export {
  convertCurrency,
  currencyCode,
  RATE_COLLECTIONS,
  type RateTable,
  ratesFromState,
  type StateReader,
} from "./currency.js";
export { type ComputationEffect, computationEffects, effectsOf, valueExpression } from "./effects.js";
export { calc, convert, MAX_EXPRESSION_LENGTH } from "./evaluate.js";
export { MATH_FUNCTIONS, math, mathFunctionName, signature } from "./math.js";
export { loadMath } from "./mathjs.js";
export { type Computation, computationFor, type Source } from "./recognise.js";
