export { toCallToolResult } from "./call-result.js";
export { type ControlToolsOptions, controlTools, DEFAULT_CONTROL_PREFIX } from "./control-tools.js";
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
  type HubOptions,
  SERVER_NAME,
  SERVER_VERSION,
  type ToolExtension,
  type ToolsChangedNotifier,
  ToolsimHub,
} from "./hub.js";
export { CALLS_URI, STATE_URI } from "./resources.js";
export { type StdioHandle, serveOverStdio } from "./stdio.js";
export { type Page, page, toMcpTool } from "./tool-list.js";
