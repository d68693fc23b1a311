export { toCallToolResult } from "./call-result.js";
export {
  type ControlToolsOptions,
  controlToolNames,
  controlTools,
  DEFAULT_CONTROL_PREFIX,
} from "./control-tools.js";
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUTS,
  describeBytes,
  type HttpHandle,
  type HttpOptions,
  type HttpTimeouts,
  isLoopback,
  ListenError,
  SESSION_HEADER,
  serveOverHttp,
} from "./http.js";
export {
  type CallContext,
  type HubOptions,
  type ProgressUpdate,
  SERVER_NAME,
  SHARED_SESSION_NAME,
  type ToolExtension,
  type ToolsChangedNotifier,
  ToolsimHub,
} from "./hub.js";
export { CALLS_URI, STATE_URI, sessionResources } from "./resources.js";
export { type StdioHandle, serveOverStdio } from "./stdio.js";
export { type Page, page, toMcpTool, withProfile } from "./tool-list.js";
export { TOOLSIM_VERSION } from "./version.js";
