// The sandbox's TLS identity for its Kubernetes endpoint. kubectl (client-go) sends bearer
// tokens only over TLS, so `sandbox serve` puts a TLS front on the loopback server. This key is
// public on purpose — it guards nothing but a simulated cluster on 127.0.0.1 — and the
// certificate is self-signed for 127.0.0.1 / localhost, valid from 2000 to 2100; the kubeconfig
// carries it as the certificate authority.
import { connect, type Server as NetServer } from "node:net";
import { createServer } from "node:tls";
import type { AddressInfo } from "node:net";

export const SANDBOX_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgnwy7of1Uha8C4nsE
/yOwr9gW+ZDUKicaYsOXb79xJPmhRANCAASwmMy2YVFyjtwGK0oDmcur1EbzBZl0
bAJ/eQWmd9FlLsHCAevlYL5IjYP7mYjYTipm76x6avVLDCxrjTlN/LT3
-----END PRIVATE KEY-----
`;

export const SANDBOX_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBnDCCAUGgAwIBAgICEAAwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQbm9kZXJv
bGwgc2FuZGJveDAgFw0wMDAxMDEwMDAwMDBaGA8yMTAwMDEwMTAwMDAwMFowGzEZ
MBcGA1UEAwwQbm9kZXJvbGwgc2FuZGJveDBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABLCYzLZhUXKO3AYrSgOZy6vURvMFmXRsAn95BaZ30WUuwcIB6+VgvkiNg/uZ
iNhOKmbvrHpq9UsMLGuNOU38tPejczBxMBoGA1UdEQQTMBGHBH8AAAGCCWxvY2Fs
aG9zdDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIChDATBgNVHSUEDDAK
BggrBgEFBQcDATAdBgNVHQ4EFgQUHmr7M3aUB+cDNoMJe1SRGBN4D+kwCgYIKoZI
zj0EAwIDSQAwRgIhAPH8T+9iBooJBrm/rXwn4OO74PHWxq5g1j7fX3kX78sZAiEA
klBPPP1DMj/t2MdWXR/hSQ9BvILeNjIPqP+Fe6n94pg=
-----END CERTIFICATE-----
`;

/** A TLS listener on 127.0.0.1 that hands every connection to the plain server at `port`. */
export async function startTlsFront(
  port: number,
  tlsPort = 0,
): Promise<{ port: number; close(): Promise<void>; server: NetServer }> {
  const open = new Set<{ destroy(): void }>();
  // No Nagle on either leg (as Node's own HTTP server and client): a piped response's last
  // short segment would otherwise wait for the peer's delayed ACK, ~10 ms per response.
  const options = { key: SANDBOX_TLS_KEY, cert: SANDBOX_TLS_CERT, noDelay: true };
  const server = createServer(options, (socket) => {
    const upstream = connect({ port, host: "127.0.0.1", noDelay: true });
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(tlsPort, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    server,
    // Kept-alive client connections would hold close() open: end them.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
