import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Far above any plausible run, even on a shared, busy 2-core CI machine: a limit is there
    // to end a hung test, not to judge speed (no test asserts on wall-clock time).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // The longest files wait on child processes, sockets and a real kubectl, not on the CPU:
    // two workers overlap those waits even on a 2-core machine (vitest's default there is one).
    maxWorkers: 2,
  },
});
