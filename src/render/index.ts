// Rendering plans and rolls for terminals, pull requests, check runs and machines. Pure.
export * from "./json.js";
export * from "./markdown.js";
export * from "./text.js";
export * from "./progress.js";
export * from "./progress-markdown.js";
export * from "./check-run.js";
export * from "./gantt.js";
export * from "./headline.js";
export * from "./limits.js";
export * from "./lines.js";
export * from "./reviewed.js";
export * from "./comment.js";
export * from "./time.js";
export * from "./status.js";
