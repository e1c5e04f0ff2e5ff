// The sandbox's TLS identities (src/sandbox/wire/tls-front.ts), one per cluster served at once:
// each a CA of its own for 127.0.0.1, valid for the sandbox's whole range of dates, whose key is
// the certificate's, so that one cluster's CA never verifies another's endpoint.
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SANDBOX_TLS_IDENTITIES } from "../../src/sandbox/wire/tls-front.js";

describe("the sandbox's TLS identities", () => {
  const certs = SANDBOX_TLS_IDENTITIES.map((id) => ({ id, x: new X509Certificate(id.cert) }));

  it("are eight, each a CA for 127.0.0.1 with its own name, serial and key", () => {
    expect(certs).toHaveLength(8);
    expect(new Set(certs.map((c) => c.x.subject)).size).toBe(8);
    expect(new Set(certs.map((c) => c.x.serialNumber)).size).toBe(8);
    expect(
      new Set(certs.map((c) => c.x.publicKey.export({ type: "spki", format: "pem" }))).size,
    ).toBe(8);
    for (const { id, x } of certs) {
      expect(x.ca, x.subject).toBe(true);
      expect(x.checkIP("127.0.0.1"), x.subject).toBe("127.0.0.1");
      expect(x.checkPrivateKey(createPrivateKey(id.key)), x.subject).toBe(true);
      expect(x.verify(createPublicKey(id.cert)), `${x.subject} is self-signed`).toBe(true);
      expect(Date.parse(x.validFrom)).toBeLessThanOrEqual(Date.parse("2000-01-02"));
      expect(Date.parse(x.validTo)).toBeGreaterThanOrEqual(Date.parse("2099-12-31"));
    }
  });

  it("do not verify one another", () => {
    for (const a of certs)
      for (const b of certs) if (a !== b) expect(a.x.verify(b.x.publicKey)).toBe(false);
  });
});
