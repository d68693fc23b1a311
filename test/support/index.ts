export * from "./processes.js";
