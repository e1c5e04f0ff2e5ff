// Validation of whole policies: the examples are valid; errors are located and all reported.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SCHEMA_URL } from "../../src/policy/json-schema.js";
import { formatDiagnostic, loadPolicy } from "../../src/policy/index.js";
import { ROOT } from "../helpers/cli.js";

const examples = readdirSync(`${ROOT}policies`).filter((f) => f.endsWith(".yaml"));

const base = `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata:
  name: prod
cluster:
  name: prod
  region: eu-west-1
`;

function errorsOf(text: string): string[] {
  const r = loadPolicy(text, "p.yaml");
  return r.ok ? [] : r.errors.map(formatDiagnostic);
}

describe("example policies", () => {
  it.each(examples)("%s is valid and starts with the schema comment", (file) => {
    const text = readFileSync(`${ROOT}policies/${file}`, "utf8");
    expect(text.startsWith(`# yaml-language-server: $schema=${SCHEMA_URL}\n`)).toBe(true);
    const r = loadPolicy(text, file);
    expect(r.ok ? [] : r.errors.map(formatDiagnostic)).toEqual([]);
  });
});

describe("validation", () => {
  it("says a sandbox scenario is one, instead of a policy's errors (issue 48, item 8)", () => {
    const text = readFileSync(`${ROOT}src/sandbox/scenarios/demo.yaml`, "utf8");
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^p\.yaml:\d+:1: kind: this is a SandboxScenario \(a sandbox cluster\), not an UpgradePolicy: validate takes policies; a scenario is checked when it is loaded/,
    );
  });

  it("accepts a minimal policy", () => {
    expect(errorsOf(`${base}groups:\n  - name: a\n`)).toEqual([]);
  });

  it("reports every error of a file at once, in file order", () => {
    const errors = errorsOf(
      `${base}defaults:\n  maxSurge: "abc%"\n  interval: 5\ngroups:\n  - name: a\n    rollingUpdate: { maxUnavailable: -1 }\n`,
    );
    expect(errors).toEqual([
      'p.yaml:9:13: defaults.maxSurge: expected an integer >= 0 or a percentage such as "25%", found "abc%"',
      'p.yaml:10:13: defaults.interval: expected a duration such as "90s", "15m", "1h30m" or "30d" (a number needs a unit), found the number 5',
      'p.yaml:13:38: groups[0].rollingUpdate.maxUnavailable: expected an integer >= 0 or a percentage such as "25%", found the number -1',
    ]);
  });

  it("points at the unknown key and suggests the known one", () => {
    expect(errorsOf(`${base}groups:\n  - name: a\n    rollingUpdate:\n      maxSurg: 1\n`)).toEqual(
      [
        'p.yaml:11:7: groups[0].rollingUpdate.maxSurg: unknown key "maxSurg"; did you mean "maxSurge"?',
      ],
    );
  });

  it("reports a missing key at the mapping it belongs to", () => {
    expect(
      errorsOf(
        `apiVersion: noderoll.io/v1\nkind: UpgradePolicy\nmetadata:\n  name: x\ncluster:\n  name: x\ngroups: [{ name: a }]\n`,
      ),
    ).toEqual([
      'p.yaml:6:3: cluster: missing required key "region"; add "region:", such as eu-west-1',
    ]);
  });

  it("rejects both budgets resolving to zero, but not a percentage that cannot round to zero", () => {
    expect(
      errorsOf(
        `${base}defaults: { maxUnavailable: 0, maxSurge: "0%" }\ngroups: [{ name: a }]\n`,
      )[0],
    ).toMatch(
      /^p\.yaml:8:13: defaults\.maxUnavailable: maxSurge resolves to 0 and maxUnavailable is 0/,
    );
    expect(
      errorsOf(`${base}defaults: { maxUnavailable: "0%", maxSurge: 0 }\ngroups: [{ name: a }]\n`),
    ).toEqual([]);
    expect(errorsOf(`${base}defaults: { maxUnavailable: 0 }\ngroups: [{ name: a }]\n`)).toEqual([]);
  });

  it("rejects maxSurge on a control-plane group but not maxSurge inherited from defaults", () => {
    const own = errorsOf(
      `${base}groups:\n  - name: cp\n    role: control-plane\n    rollingUpdate: { maxSurge: 1 }\n`,
    );
    expect(own).toHaveLength(1);
    expect(own[0]).toMatch(
      /^p\.yaml:11:22: groups\[0\]\.rollingUpdate\.maxSurge: a control-plane group cannot surge/,
    );
    expect(
      errorsOf(
        `${base}defaults: { maxSurge: 1 }\ngroups:\n  - name: cp\n    role: control-plane\n`,
      ),
    ).toEqual([]);
  });

  it('accepts maxSurge: 0 (and "0%") on a control-plane group: it says "no surge"', () => {
    for (const surge of ["0", '"0%"'])
      expect(
        errorsOf(
          `${base}groups:\n  - name: cp\n    role: control-plane\n    rollingUpdate: { maxSurge: ${surge} }\n`,
        ),
      ).toEqual([]);
  });

  it("checks order entries against roles and group names, globs included", () => {
    const groups = "groups:\n  - name: ingress-a\n  - name: batch\n";
    expect(errorsOf(`${base}order: [ingress-*, node, batch]\n${groups}`)).toEqual([]);
    expect(errorsOf(`${base}order: [ingres-*, bastion]\n${groups}`)).toEqual([
      'p.yaml:8:9: order[0]: "ingres-*" matches no role or group of this policy; did you mean "ingress-a"?',
      'p.yaml:8:19: order[1]: "bastion" is a role, but no group of this policy has it; remove it or set "role: bastion" on a group',
    ]);
  });

  it("rejects a time zone that does not exist", () => {
    const window =
      'window: { days: [Mon], start: "09:00", end: "16:00", timeZone: Europe/Berlim }\n';
    expect(errorsOf(`${base}${window}groups: [{ name: a }]\n`)).toEqual([
      'p.yaml:8:64: window.timeZone: expected an IANA time zone such as "Europe/Berlin" or "UTC" (did you mean "Europe/Berlin"?), found "Europe/Berlim"',
    ]);
  });

  it("follows aliases but refuses an alias bomb quickly", () => {
    const shared = `${base}x-shared: &ru { maxUnavailable: 2 }\n`;
    expect(errorsOf(`${shared}groups: [{ name: a, rollingUpdate: *ru }]\n`)[0]).toMatch(
      /unknown key "x-shared"/,
    );
    let bomb = 'a: &a ["x","x","x","x","x","x","x","x","x","x"]\n';
    let prev = "a";
    for (const k of "bcdefghijklmnop") {
      bomb += `${k}: &${k} [${Array(10).fill(`*${prev}`).join(",")}]\n`;
      prev = k;
    }
    // Expanded, the bomb is 10^16 strings: the run would never return or would run out of
    // memory. Returning this one error is the proof that expansion stopped early.
    const errors = errorsOf(bomb);
    expect(errors).toEqual([
      expect.stringMatching(/^p\.yaml:1:1: aliases expand to too much data/),
    ]);
  });
});
