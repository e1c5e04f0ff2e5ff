// The policy file adapter: reading a policy file from disk for the command line and the action,
// without ever holding more than the size limit in memory (a 5 GB file is refused after reading
// 1 MiB + 1 byte of it).
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import {
  loadPolicy,
  MAX_POLICY_BYTES,
  sizeMessage,
  type Diagnostic,
  type LoadResult,
} from "../../policy/index.js";

function fileError(file: string, message: string): LoadResult {
  const d: Diagnostic = { file, line: 1, col: 1, path: "", message, severity: "error" };
  return { ok: false, errors: [d], warnings: [] };
}

/** Read `path` (shown in errors as `file`, by default the path itself). */
export function readPolicyFile(path: string, file = path): LoadResult {
  let fd: number;
  try {
    if (statSync(path).isDirectory())
      return fileError(file, "is a directory; expected a policy file");
    fd = openSync(path, "r");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return fileError(
      file,
      code === "ENOENT" ? "no such file" : `cannot be read (${code ?? String(e)})`,
    );
  }
  try {
    // The size of what was opened: a file swapped for another after the check is not read.
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, MAX_POLICY_BYTES) + 1);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    if (n > MAX_POLICY_BYTES) return fileError(file, sizeMessage(size));
    if ((buffer[0] === 0xff && buffer[1] === 0xfe) || (buffer[0] === 0xfe && buffer[1] === 0xff)) {
      return fileError(file, "is saved as UTF-16; save it as UTF-8");
    }
    const text = buffer.subarray(0, n).toString("utf8");
    if (text.includes("\u0000")) return fileError(file, "is a binary file, not YAML");
    return loadPolicy(text.replace(/^\uFEFF/, ""), file);
  } finally {
    closeSync(fd);
  }
}
