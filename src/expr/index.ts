export { EXPRESSION_BOUNDS } from "./bounds.js";
export { checkExpression, type ExpressionContext, type ExpressionProblem } from "./check.js";
export { type Compiled, compileExpression } from "./compile.js";
export { type Evaluation, type ExpressionScope, evaluateExpression, truthy } from "./evaluate.js";
export {
  JSONATA_FUNCTIONS,
  TOOLSIM_FUNCTIONS,
  UNAVAILABLE_FUNCTIONS,
} from "./functions.js";
