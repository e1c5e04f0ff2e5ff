// One line of the job log per roll event worth reading: the same lines as the terminal
// (src/render/lines.ts), so a reader of either sees the same roll.
export { eventLine } from "../render/index.js";
