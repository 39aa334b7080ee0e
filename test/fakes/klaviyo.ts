/**
 * A fake Klaviyo API on loopback, speaking its wire format and applying its rules:
 * - `Authorization: Klaviyo-API-Key <private key>` (401 `not_authenticated` otherwise; 403
 *   `permission_denied` for a key without `profiles:write`), a `revision` header (400
 *   `invalid_revision` without one), JSON:API content type (415 otherwise);
 * - `POST /api/profile-import`: a JSON:API `profile` upserted by e-mail (400 `invalid` with a
 *   `source.pointer` for a missing or malformed e-mail), properties merged, and
 *   `meta.patch_properties.unset` removing keys; 201 for a new profile, 200 for an update;
 * - `GET /api/accounts`: the key's account;
 * - scripted 429s (`throttled`, with Retry-After) as its burst and steady limits answer.
 * Every error body is JSON:API: `{errors: [{id, status, code, title, detail, source}]}`.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface KlaviyoProfile {
  id: string;
  email: string;
  first_name?: string;
  last_name?: string;
  properties: Record<string, unknown>;
}

export interface FakeKlaviyo {
  baseUrl: string;
  /** A private key with profiles:write. */
  apiKey: string;
  /** A private key without profiles:write (read-only). */
  readOnlyKey: string;
  profiles: Map<string, KlaviyoProfile>;
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown }[];
  /** The next `n` calls answer 429 with `Retry-After: seconds`. */
  throttle(n: number, seconds: number): void;
  close(): Promise<void>;
}

const JSON_API = "application/vnd.api+json";

function error(status: number, code: string, title: string, detail: string, pointer?: string) {
  return {
    status,
    body: {
      errors: [
        {
          id: randomUUID(),
          status,
          code,
          title,
          detail,
          source: pointer === undefined ? {} : { pointer },
          links: {},
          meta: {},
        },
      ],
    },
  };
}

export async function startFakeKlaviyo(): Promise<FakeKlaviyo> {
  const apiKey = `pk_${randomUUID().replace(/-/g, "").slice(0, 30)}`;
  const readOnlyKey = `pk_${randomUUID().replace(/-/g, "").slice(0, 30)}`;
  const profiles = new Map<string, KlaviyoProfile>();
  const requests: FakeKlaviyo["requests"] = [];
  let throttled = 0;
  let throttleSeconds = 1;

  function handle(req: http.IncomingMessage, raw: string) {
    const path = (req.url ?? "").split("?")[0];
    let body: unknown = null;
    try {
      body = raw === "" ? null : JSON.parse(raw);
    } catch {
      return error(400, "parse_error", "Malformed request.", "The request body is not valid JSON.");
    }
    requests.push({ method: req.method ?? "", path: path ?? "", headers: req.headers, body });
    if (throttled > 0) {
      throttled--;
      return {
        ...error(
          429,
          "throttled",
          "Request was throttled.",
          `Request was throttled. Expected available in ${throttleSeconds} second.`,
        ),
        headers: { "retry-after": String(throttleSeconds) },
      };
    }
    const auth = req.headers.authorization ?? "";
    const key = auth.startsWith("Klaviyo-API-Key ") ? auth.slice("Klaviyo-API-Key ".length) : "";
    if (key !== apiKey && key !== readOnlyKey)
      return error(
        401,
        "not_authenticated",
        "Authentication credentials were not provided.",
        "Missing or invalid private key.",
      );
    if (!/^\d{4}-\d{2}-\d{2}(\.\w+)?$/.test(String(req.headers.revision ?? "")))
      return error(
        400,
        "invalid_revision",
        "Invalid revision.",
        "A valid revision header is required.",
      );
    if (req.method === "GET" && path === "/api/accounts") {
      return { status: 200, body: { data: [{ type: "account", id: "XyZ123", attributes: {} }] } };
    }
    if (req.method !== "POST" || path !== "/api/profile-import")
      return error(404, "not_found", "Not found.", `No route ${req.method} ${path}.`);
    if (!String(req.headers["content-type"] ?? "").startsWith(JSON_API))
      return error(415, "unsupported_media_type", "Unsupported media type.", `Use ${JSON_API}.`);
    if (key === readOnlyKey)
      return error(
        403,
        "permission_denied",
        "You do not have permission to perform this action.",
        "This API key is missing required scopes: profiles:write.",
      );
    const data = (body as { data?: Record<string, unknown> } | null)?.data;
    if (data?.type !== "profile")
      return error(
        400,
        "invalid",
        "Invalid input.",
        "'profile' is not a valid choice.",
        "/data/type",
      );
    const attributes = (data.attributes ?? {}) as Record<string, unknown>;
    const email = attributes.email;
    if (typeof email !== "string" || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
      return error(
        400,
        "invalid",
        "Invalid input.",
        "Invalid email address",
        "/data/attributes/email",
      );
    const existing = profiles.get(email.toLowerCase());
    const profile: KlaviyoProfile = existing ?? { id: randomUUID(), email, properties: {} };
    for (const name of ["first_name", "last_name"] as const) {
      if (typeof attributes[name] === "string") profile[name] = attributes[name] as string;
    }
    Object.assign(profile.properties, (attributes.properties ?? {}) as Record<string, unknown>);
    const meta = (data.meta ?? {}) as { patch_properties?: { unset?: string | string[] } };
    const unset = meta.patch_properties?.unset;
    for (const name of typeof unset === "string" ? [unset] : (unset ?? []))
      delete profile.properties[name];
    profiles.set(email.toLowerCase(), profile);
    return {
      status: existing === undefined ? 201 : 200,
      body: { data: { type: "profile", id: profile.id, attributes: { ...profile } } },
    };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const answer = handle(req, Buffer.concat(chunks).toString("utf8")) as {
        status: number;
        body: unknown;
        headers?: Record<string, string>;
      };
      res.writeHead(answer.status, { "content-type": JSON_API, ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    readOnlyKey,
    profiles,
    requests,
    throttle: (n, seconds) => {
      throttled = n;
      throttleSeconds = seconds;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
