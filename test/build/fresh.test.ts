// dist/ and the JSON Schema are checked in; these fail when either differs from what the
// sources produce now. Fix with `npm run build` and `npm run schema`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { policyJsonSchemaText } from "../../src/policy/index.js";
import { ROOT } from "../helpers/cli.js";

const out = mkdtempSync(join(tmpdir(), "noderoll-dist-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("checked-in artefacts are fresh", () => {
  it("dist/ equals a fresh bundle (run `npm run build`)", () => {
    const r = spawnSync(process.execPath, ["scripts/build.mjs", "--outdir", out], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    // Every file, in every folder (the command line's lazily loaded chunks are in one).
    const files = (dir: string) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
        .sort();
    const fresh = files(out);
    expect(files(join(ROOT, "dist"))).toEqual(fresh);
    expect(fresh).toContain("cli.js");
    for (const file of fresh) {
      const same = readFileSync(join(out, file)).equals(readFileSync(join(ROOT, "dist", file)));
      expect(same, `dist/${file} is stale: run npm run build and commit dist/`).toBe(true);
    }
  });

  it("policies/upgrade-policy.schema.json equals the schema generated from zod (run `npm run schema`)", () => {
    const committed = readFileSync(join(ROOT, "policies/upgrade-policy.schema.json"), "utf8");
    expect(committed).toBe(policyJsonSchemaText());
  });

  it("the JSON Schema describes every key editors need", () => {
    const schema = JSON.parse(policyJsonSchemaText());
    expect(Object.keys(schema.properties)).toEqual([
      "apiVersion",
      "kind",
      "metadata",
      "cluster",
      "defaults",
      "window",
      "rehearsal",
      "order",
      "groups",
    ]);
    const ru = schema.properties.defaults.properties;
    expect(Object.keys(ru)).toEqual([
      "maxUnavailable",
      "maxSurge",
      "deleteAfterDrainTimeout",
      "unmanagedPods",
      "postDrainDelay",
      "drainTimeout",
      "interval",
      "validation",
      "drainAndTerminate",
      "maxNodeAge",
      "spreadAcrossZones",
      "gates",
      "updateStrategy",
    ]);
    expect(Object.keys(ru.gates.properties)).toEqual([
      "bake",
      "checkpoints",
      "checkpointDelay",
      "alarms",
      "prometheus",
      "replacements",
      "onFailure",
      "onInconclusive",
    ]);
    expect(ru.maxSurge.anyOf).toEqual([
      { type: "integer", minimum: 0 },
      { type: "string", pattern: "^(100|[1-9]?[0-9])%$" },
    ]);
    expect(ru.postDrainDelay.default).toBe("5s");
    expect(schema.properties.defaults.additionalProperties).toBe(false);
  });
});
