// The sandbox's TLS identities for its Kubernetes endpoints. kubectl (client-go) sends bearer
// tokens only over TLS, so `sandbox serve` puts a TLS front on the loopback server, one per
// cluster: cluster i presents identity i, and its kubeconfig and DescribeCluster carry that
// certificate as the cluster's certificate authority, so that, as between two EKS clusters, one
// cluster's CA does not verify the other's endpoint. These keys are public on purpose — they
// guard nothing but simulated clusters on 127.0.0.1. Each certificate is self-signed for
// 127.0.0.1 / localhost, valid from 2000 to 2100, a CA (basicConstraints CA:TRUE, keyUsage
// digitalSignature + keyCertSign, extendedKeyUsage serverAuth) with a key of its own (EC P-256)
// and a name of its own (CN "noderoll sandbox", "noderoll sandbox 2", ...; serials 0x1000 on).
// Identities 2 to 8 were made with OpenSSL 3.0 (its `req -x509` cannot start a certificate in
// the past, `ca -selfsign` can), per identity N:
//   openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out keyN.pem
//   openssl req -new -key keyN.pem -subj "/CN=noderoll sandbox N" -out reqN.csr
//   openssl ca -batch -config ca.cnf -selfsign -keyfile keyN.pem -in reqN.csr -out certN.pem \
//     -startdate 20000101000000Z -enddate 21000101000000Z -notext
// with an empty index.txt, a `serial` file holding the serial, and a ca.cnf whose extensions are
// subjectAltName = IP:127.0.0.1, DNS:localhost; basicConstraints = critical, CA:TRUE;
// keyUsage = critical, digitalSignature, keyCertSign; extendedKeyUsage = serverAuth;
// subjectKeyIdentifier = hash (policy: commonName supplied, default_md sha256).
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

/** A key and its self-signed certificate: what a cluster's TLS front presents. */
export interface TlsIdentity {
  key: string;
  cert: string;
}

/** Every identity the sandbox has, one per cluster it serves at once: the first is the above. */
export const SANDBOX_TLS_IDENTITIES: readonly TlsIdentity[] = [
  { key: SANDBOX_TLS_KEY, cert: SANDBOX_TLS_CERT },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgmNASJy1S0eA2ut4V
pZiRn2zjttdnJzult56xeb8W9JahRANCAATi7YoYJuyz42JN/WPZP8HaqOOGMtfv
hWLDdzuDU0yeru/Xkeexl9vXPXgC53wyMWL6u2+Gp0wiVNmZHE3v5XRN
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUWgAwIBAgICEAEwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCAyMCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDIwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATi7YoYJuyz42JN/WPZP8HaqOOGMtfvhWLDdzuDU0yeru/Xkeexl9vX
PXgC53wyMWL6u2+Gp0wiVNmZHE3v5XRNo3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFKuScTXOAXHqUxhL4E6xYku+WDPyMAoG
CCqGSM49BAMCA0gAMEUCIQCRvz4RDzCGU0mYFcKpbd7Zd0cBVZQctk1M/p+I8Arw
MwIgbt8b6b7fNwyCyyY/QoQa7lsF2gvEK9GezhkNITZQCKg=
-----END CERTIFICATE-----
`,
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgn+N637Ja7Gec+9zR
2LqXGqlBn/Vc4UdG9UpGjV5/iD6hRANCAAQ4MrWpEYS/BeJVTpkbCrIBaUfSXypf
nYAtYEtmQL6daLdgaG1/DISCLzbHR2PH9Md52IvsadjmjJVkSehgARir
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUWgAwIBAgICEAIwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCAzMCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDMwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQ4MrWpEYS/BeJVTpkbCrIBaUfSXypfnYAtYEtmQL6daLdgaG1/DISC
LzbHR2PH9Md52IvsadjmjJVkSehgARiro3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFKjRrXxWRh4FV5YrMPqMWpxDWKusMAoG
CCqGSM49BAMCA0gAMEUCICoGRbaAIqQcIu3vUPGyzCCTIOrzTC/iSaspxEWusUDE
AiEAwEmjSJTakDqgDlhk6cUqgmcZqVDeYJxao6xJSGGGBtU=
-----END CERTIFICATE-----
`,
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg5mATdn8DL3SQtTNJ
Fi0L+kdzGl+RDdotJyD4TFldmC6hRANCAAQh5oANSK8MoU5Yp4CNHumRtoU1aJjn
ijf5SvUrXP03R5OtYKI8UKy4N/01I5gbSO33APuLxYpNSsniaqC/WoT8
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnjCCAUWgAwIBAgICEAMwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCA0MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDQwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQh5oANSK8MoU5Yp4CNHumRtoU1aJjnijf5SvUrXP03R5OtYKI8UKy4
N/01I5gbSO33APuLxYpNSsniaqC/WoT8o3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFAnh9TarYjTROPlhZ5iASnotltWfMAoG
CCqGSM49BAMCA0cAMEQCIFZNf3DBAHvG07yrm5mlIxJ8eTIP5/FJa4fJ0wX7KI6T
AiBjJvAqdoF56RQIULl5h+J2N20VkafC3S1bfXQZCyNSiA==
-----END CERTIFICATE-----
`,
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgXLL/U4WuBgeOUILY
SRRpI5hynOsGOcbrUCze7Cgn1Y+hRANCAATEFMuscLbWYy0Yho18ZkqZr/S2GoH6
73h91AU7iye1dM0upTM/gnk8SCSvSLuBBll+xgTDz9++GpKEWggQGsdl
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnjCCAUWgAwIBAgICEAQwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCA1MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDUwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATEFMuscLbWYy0Yho18ZkqZr/S2GoH673h91AU7iye1dM0upTM/gnk8
SCSvSLuBBll+xgTDz9++GpKEWggQGsdlo3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFIW9+ffolhXB2+ceeYMQ2Hz3kN6hMAoG
CCqGSM49BAMCA0cAMEQCIEGSHDg4sO6OtKcdHNDBOUUbJzU2CncBClaUUhrjW0E7
AiBCGucE7BNf7YHRb9YRFHOfJXYqhS+E97HZuOM2LqLUNQ==
-----END CERTIFICATE-----
`,
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgfov6grej0TbFBk7X
OkUAIPJn1yLT0MQliNNBLJFLtoqhRANCAAQMjGz/6wqpMpZakLaPx4c+9ZHvrYaV
EPUKcr1rNiW1LiPB2Xejk0hGnObTl4nLlvHgjvvWmkigzzFtGTzNoQYi
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUWgAwIBAgICEAUwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCA2MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDYwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQMjGz/6wqpMpZakLaPx4c+9ZHvrYaVEPUKcr1rNiW1LiPB2Xejk0hG
nObTl4nLlvHgjvvWmkigzzFtGTzNoQYio3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFCRHSoi04sBMoAAjwMBQEXTsuodtMAoG
CCqGSM49BAMCA0gAMEUCIFD7g1Vhq3I5MdrSM+uvdQa3vXV9eGBUxe0pcBABjO+x
AiEAn15M7Of6oE0DWbCKYuyKoLfUBDINXS6hdq27Vly3KLU=
-----END CERTIFICATE-----
`,
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgGeZZ+Rwwotvb8O/y
kLAAIV+2nczaPY7oZVI07Dy6wJihRANCAARPcGARrsIjrev5R8KrQ0yYDASQvWoc
GpFfNVSXV+PSl8bxyzhNsMPKI+3uVjCGlF0j7rU658nCA+qKddT6b4I9
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUWgAwIBAgICEAYwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCA3MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDcwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARPcGARrsIjrev5R8KrQ0yYDASQvWocGpFfNVSXV+PSl8bxyzhNsMPK
I+3uVjCGlF0j7rU658nCA+qKddT6b4I9o3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFNAR0WFcVnO88Xk/p8MyjGiX+MFdMAoG
CCqGSM49BAMCA0gAMEUCIQCTY34nWs/jsu0LXlh6fDAJMdsHiLqYtmNT4m7hNmzn
VgIgFZbG2VMsEbeFeEezungsF5BfH5BL5HBL0G3kEabxVVw=
-----END CERTIFICATE-----
`,
  },
  {
    key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgPEEXZBJYG/S/e1+G
TDH+YQUcECSN1TM9qtMI1llPt06hRANCAASDTYw4G7/6S6dht+B/n8p3BmN5bFUj
3IcFqA81fBvit3q+k/MBiWqkP4fTR5fTUwxp70XdIIPC6WekHFZrviMU
-----END PRIVATE KEY-----
`,
    cert: `-----BEGIN CERTIFICATE-----
MIIBnzCCAUWgAwIBAgICEAcwCgYIKoZIzj0EAwIwHTEbMBkGA1UEAwwSbm9kZXJv
bGwgc2FuZGJveCA4MCAXDTAwMDEwMTAwMDAwMFoYDzIxMDAwMTAxMDAwMDAwWjAd
MRswGQYDVQQDDBJub2Rlcm9sbCBzYW5kYm94IDgwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASDTYw4G7/6S6dht+B/n8p3BmN5bFUj3IcFqA81fBvit3q+k/MBiWqk
P4fTR5fTUwxp70XdIIPC6WekHFZrviMUo3MwcTAaBgNVHREEEzARhwR/AAABggls
b2NhbGhvc3QwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAoQwEwYDVR0l
BAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFNMKlsoDeAtHi36qXyGOvmL/8D+aMAoG
CCqGSM49BAMCA0gAMEUCIQCIYCnDHKDG/fhA432XSOhrQlp1jPKiQyyt0kSDg0NY
2wIgTPU8mX1wkpJnx72UZghzoRKi3XfrN23OLcm9SZc/ZaI=
-----END CERTIFICATE-----
`,
  },
];

/**
 * A TLS listener on 127.0.0.1 that presents `identity` and hands every connection to the plain
 * server at `port`.
 */
export async function startTlsFront(
  port: number,
  tlsPort = 0,
  identity: TlsIdentity = { key: SANDBOX_TLS_KEY, cert: SANDBOX_TLS_CERT },
): Promise<{ port: number; close(): Promise<void>; server: NetServer }> {
  const open = new Set<{ destroy(): void }>();
  // No Nagle on either leg (as Node's own HTTP server and client): a piped response's last
  // short segment would otherwise wait for the peer's delayed ACK, ~10 ms per response.
  const options = { key: identity.key, cert: identity.cert, noDelay: true };
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
