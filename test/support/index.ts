export * from "./engine.js";
export * from "./processes.js";
