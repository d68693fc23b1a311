export * from "./engine.js";
export * from "./fake-openai.js";
export * from "./frameworks.js";
export * from "./llm-runtime.js";
export * from "./processes.js";
export * from "./stores.js";
export * from "./task-player.js";
