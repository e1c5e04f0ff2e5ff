// Rendering plans (and, later, progress) for terminals, pull requests and machines. Pure.
export * from "./json.js";
export * from "./markdown.js";
export * from "./text.js";
export * from "./progress.js";
export * from "./check-run.js";
