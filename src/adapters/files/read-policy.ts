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

function fileError(file: string, message: string): LoadResult & { ok: false } {
  const d: Diagnostic = { file, line: 1, col: 1, path: "", message, severity: "error" };
  return { ok: false, errors: [d], warnings: [] };
}

/** Read `path` (shown in errors as `file`, by default the path itself). */
export function readPolicyFile(path: string, file = path): LoadResult {
  const text = readYamlText(path, file, "a policy file");
  return typeof text === "string" ? loadPolicy(text, file) : text;
}

/**
 * A YAML file's text — a policy's, a fleet's — or why it cannot be one, as a located error:
 * never more than the size limit read into memory (`what` names what was expected).
 */
export function readYamlText(
  path: string,
  file: string,
  what: string,
): string | (LoadResult & { ok: false }) {
  let fd: number;
  try {
    if (statSync(path).isDirectory()) return fileError(file, `is a directory; expected ${what}`);
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
    return text.replace(/^\uFEFF/, "");
  } finally {
    closeSync(fd);
  }
}
