// The hash constructor SigV4 signing asks for, on Node's own crypto.
import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";

type Data = string | ArrayBuffer | ArrayBufferView;

function bytes(data: Data): Buffer | string {
  if (typeof data === "string") return data;
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

export class NodeSha256 {
  private readonly hash: Hash | Hmac;

  constructor(secret?: Data) {
    this.hash = secret === undefined ? createHash("sha256") : createHmac("sha256", bytes(secret));
  }

  update(data: Data): void {
    this.hash.update(bytes(data));
  }

  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}
