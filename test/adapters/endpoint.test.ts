// What the Kubernetes adapter says of where its API is (Cluster.endpoint), which the cluster
// identity check compares with DescribeCluster (src/plan/identity.ts): the URL, the CA TLS
// verifies it with (read from a file once), and that nothing is proven when TLS is not verified.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { KubeHttp } from "../../src/adapters/kubernetes/http.js";

function http(cluster: string): KubeHttp {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(`apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: ${cluster} }]
users: [{ name: u, user: { token: t } }]
contexts: [{ name: x, context: { cluster: c, user: u } }]
current-context: x
`);
  return new KubeHttp({ kubeConfig, retry: { sleep: async () => {} } });
}

const CA = Buffer.from("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n").toString(
  "base64",
);

describe("KubeHttp.endpoint", () => {
  it("gives the URL and the CA data TLS verifies it with", () => {
    expect(
      http(
        `{ server: "https://abc.gr7.eu-west-1.eks.amazonaws.com", certificate-authority-data: ${CA} }`,
      ).endpoint(),
    ).toEqual({
      server: "https://abc.gr7.eu-west-1.eks.amazonaws.com",
      caData: CA,
    });
  });

  it("reads a CA file as data", () => {
    const file = join(mkdtempSync(join(tmpdir(), "noderoll-ca-")), "ca.crt");
    writeFileSync(file, Buffer.from(CA, "base64"));
    expect(http(`{ server: "https://h:6443", certificate-authority: ${file} }`).endpoint()).toEqual(
      {
        server: "https://h:6443",
        caData: CA,
      },
    );
  });

  it("says insecure, and gives no CA, when TLS is not verified or not used", () => {
    expect(http(`{ server: "https://h", insecure-skip-tls-verify: true }`).endpoint()).toEqual({
      server: "https://h",
      insecure: true,
    });
    expect(http(`{ server: "http://127.0.0.1:8080" }`).endpoint()).toEqual({
      server: "http://127.0.0.1:8080",
      insecure: true,
    });
  });
});
