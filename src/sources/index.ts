export * from "./read.js";
