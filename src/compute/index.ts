export { type Computed, calc, convert } from "./evaluate.js";
