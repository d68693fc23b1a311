export type { UpstreamBinding } from "./bindings.js";
export {
  type ConfigResult,
  parseUpstreamConfig,
  type RouteLists,
  readUpstreamConfig,
  type UpstreamSpec,
} from "./config.js";
export { type ConnectionStatus, UpstreamConnection } from "./connection.js";
export { explainRoutes } from "./explain.js";
export { HybridExtension } from "./extension.js";
export { describeSpec, Hybrid, type HybridOptions, type HybridStart } from "./hybrid.js";
export { formatSize, parseListing, renderLines } from "./listing.js";
export { namespaceKey, type Overlay } from "./overlay.js";
export { decideRoute, type Route, type RouteDecision, type RouteMode } from "./routes.js";
