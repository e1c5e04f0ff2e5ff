// The AWS query protocol as Auto Scaling and EC2 speak it: form-encoded parameters with
// dotted, numbered members in, XML out. Auto Scaling wraps list items in <member>, EC2 in <item>
// and flattens request lists as Name.1, Name.2 (Auto Scaling: Name.member.1).

export type QueryValue = string | QueryValue[] | { [key: string]: QueryValue };

/**
 * Form parameters as a tree: "InstanceIds.member.2=i-b" → { InstanceIds: [, "i-b"] } and
 * "Filter.1.Value.1=x" → { Filter: [{ Value: ["x"] }] }. Numbers are 1-based list indexes.
 */
export function parseQueryParams(params: URLSearchParams): Record<string, QueryValue> {
  const root: Record<string, QueryValue> = {};
  for (const [key, value] of params) {
    const parts = key.split(".").filter((p) => p !== "member" && p !== "item");
    let node: Record<string, QueryValue> | QueryValue[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const index = /^\d+$/.test(part) ? Number(part) - 1 : undefined;
      const slot = index ?? part;
      const container = node as Record<string | number, QueryValue>;
      if (last) {
        container[slot] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(parts[i + 1] as string);
      container[slot] ??= nextIsIndex ? [] : {};
      node = container[slot] as Record<string, QueryValue> | QueryValue[];
    });
  }
  return compactLists(root) as Record<string, QueryValue>;
}

function compactLists(v: QueryValue): QueryValue {
  if (Array.isArray(v)) return v.filter((x) => x !== undefined).map(compactLists);
  if (typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, compactLists(x)]));
  return v;
}

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

export type XmlValue =
  string | number | boolean | Date | null | undefined | XmlValue[] | { [key: string]: XmlValue };

/** Serialize a value as AWS XML: objects become elements, arrays repeated `listItem`s. */
export function toXml(value: XmlValue, listItem: "member" | "item"): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return value.map((v) => `<${listItem}>${toXml(v, listItem)}</${listItem}>`).join("");
  if (typeof value === "object") {
    return Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `<${k}>${toXml(v, listItem)}</${k}>`)
      .join("");
  }
  return escapeXml(String(value));
}

export interface QueryError {
  status: number;
  code: string;
  message: string;
  type?: "Sender" | "Receiver";
}

/** Auto Scaling's error document (the generic query-protocol shape). */
export function queryErrorXml(e: QueryError, requestId: string, namespace: string): string {
  return `<ErrorResponse xmlns="${namespace}"><Error><Type>${e.type ?? "Sender"}</Type><Code>${escapeXml(e.code)}</Code><Message>${escapeXml(e.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
}

/** EC2's error document, which differs from the other query services. */
export function ec2ErrorXml(e: QueryError, requestId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>${escapeXml(e.code)}</Code><Message>${escapeXml(e.message)}</Message></Error></Errors><RequestID>${requestId}</RequestID></Response>`;
}

/** The signing service named in a SigV4 Authorization header or presigned query. */
export function signingService(
  headers: Record<string, string | string[] | undefined>,
  query?: URLSearchParams,
): string | undefined {
  const auth = String(headers.authorization ?? "");
  const scope = /Credential=[^/]+\/\d{8}\/[^/]+\/([^/]+)\/aws4_request/.exec(auth)?.[1];
  return scope ?? query?.get("X-Amz-Credential")?.split("/")[3];
}
