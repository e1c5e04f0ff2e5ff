// The policy's `gates:` (issue 47): written under defaults or a group's rollingUpdate, merged key
// by key, resolved to what the roll reads; errors located at file:line:col.
import { describe, expect, it } from "vitest";
import {
  formatDiagnostic,
  loadPolicy,
  rollSettings,
  writtenSettings,
  type Group,
  type Policy,
} from "../../src/policy/index.js";

const resolveGroupSettings = (p: Policy, g: Group) => rollSettings(writtenSettings(p, g).merged);

const base = `apiVersion: noderoll.io/v1
kind: UpgradePolicy
metadata:
  name: prod
cluster:
  name: prod
  region: eu-west-1
`;

function load(text: string): { policy?: Policy; errors: string[] } {
  const r = loadPolicy(text, "p.yaml");
  return r.ok ? { policy: r.policy, errors: [] } : { errors: r.errors.map(formatDiagnostic) };
}

describe("gates in the policy", () => {
  it("resolves the issue's example, defaults merged under a group's own key by key", () => {
    const { policy, errors } = load(`${base}defaults:
  gates:
    bake: 5m
    checkpoints: ["50%", "10%"]
    checkpointDelay: 1h
    alarms: [api-5xx, api-p99]
    prometheus:
      - name: error-rate
        address: http://prometheus.monitoring.svc:9090
        query: sum(rate(http_requests_total{code=~"5.."}[2m])) / sum(rate(http_requests_total[2m]))
        failAbove: 0.01
    replacements:
      readyWithin: 10m
      crashLoopingPods: 1
    onFailure: halt
    onInconclusive: pause
groups:
  - name: a
    rollingUpdate:
      gates: { bake: 1m, replacements: { crashLoopingPods: 3 } }
  - name: b
`);
    expect(errors).toEqual([]);
    const [a, b] = (policy as Policy).groups.map((g) => resolveGroupSettings(policy as Policy, g));
    expect(a?.gates).toMatchObject({
      bakeMs: 60_000,
      checkpoints: [0.1, 0.5],
      checkpointDelayMs: 3_600_000,
      alarms: ["api-5xx", "api-p99"],
      prometheus: [{ name: "error-rate", fail: { above: 0.01 } }],
      replacements: { readyWithinMs: 600_000, crashLoopingPods: 3 },
      onFailure: "halt",
      onInconclusive: "pause",
    });
    expect(b?.gates.bakeMs).toBe(300_000);
    expect(b?.gates.replacements.crashLoopingPods).toBe(1);
  });

  it("has the replacements gate on by default", () => {
    const { policy } = load(`${base}groups: [{ name: a }]\n`);
    const s = resolveGroupSettings(policy as Policy, (policy as Policy).groups[0]!);
    expect(s.gates).toMatchObject({
      bakeMs: 0,
      checkpoints: [],
      alarms: [],
      prometheus: [],
      replacements: { readyWithinMs: 600_000, crashLoopingPods: 1 },
      onInconclusive: "pause",
    });
  });

  it("locates every mistake, saying what was expected", () => {
    const { errors } = load(`${base}defaults:
  gates:
    bake: 5
    checkpoints: ["150%"]
    prometheus:
      - name: errors
        address: prometheus:9090
        query: up
        failAbove: 1
        failBelow: 0
      - { name: errors, address: "http://p:9090", query: up }
    onInconclusive: wait
groups:
  - name: a
    rollingUpdate: { gates: { checkpointDelay: 1h } }
`);
    expect(errors).toEqual([
      'p.yaml:10:11: defaults.gates.bake: expected a duration such as "90s", "15m", "1h30m" or "30d" (a number needs a unit), found the number 5',
      'p.yaml:11:19: defaults.gates.checkpoints[0]: expected a share of the group\'s nodes from "1%" to "99%", quoted, such as "50%", found "150%"',
      'p.yaml:14:18: defaults.gates.prometheus[0].address: expected an http:// or https:// URL, found "prometheus:9090"',
      'p.yaml:19:21: defaults.gates.onInconclusive: expected one of "pause", "halt", "continue", found "wait"',
      "p.yaml:22:31: groups[0].rollingUpdate.gates.checkpointDelay: checkpointDelay is set but there are no checkpoints; add checkpoints or remove it",
    ]);
  });

  it("asks each Prometheus gate for exactly one threshold and its own name", () => {
    const { errors } = load(`${base}groups:
  - name: a
    rollingUpdate:
      gates:
        prometheus:
          - name: errors
            address: http://p:9090
            query: up
            failAbove: 1
            failBelow: 0
          - { name: errors, address: "http://p:9090", query: up }
`);
    expect(errors).toEqual([
      'p.yaml:17:13: groups[0].rollingUpdate.gates.prometheus[0].failBelow: Prometheus gate "errors" needs exactly one threshold: failAbove or failBelow',
      'p.yaml:18:13: groups[0].rollingUpdate.gates.prometheus[1]: Prometheus gate "errors" needs exactly one threshold: failAbove or failBelow',
      'p.yaml:18:15: groups[0].rollingUpdate.gates.prometheus[1].name: Prometheus gate "errors" is listed twice; give each gate its own name',
    ]);
  });

  it("takes a checkpointDelay and the checkpoints from defaults and a group alike", () => {
    const split = (a: string, b: string) =>
      load(
        `${base}defaults: { gates: { ${a} } }\ngroups:\n  - { name: a, rollingUpdate: { gates: { ${b} } } }\n`,
      ).errors;
    expect(split('checkpoints: ["50%"]', "checkpointDelay: 1h")).toEqual([]);
    expect(split("checkpointDelay: 1h", 'checkpoints: ["50%"]')).toEqual([]);
    expect(split("checkpointDelay: 1h", "bake: 1m")).toEqual([
      "p.yaml:8:22: defaults.gates.checkpointDelay: checkpointDelay is set but there are no checkpoints; add checkpoints or remove it",
    ]);
  });
});
