import { it } from "vitest";
import { benchEksUpdate } from "../../src/sandbox/bench.js";
it("bench", async () => {
  console.log(JSON.stringify(await benchEksUpdate(Number(process.env.N ?? 100), 30), null, 1));
}, 600000);
