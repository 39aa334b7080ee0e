/**
 * A fake Klaviyo API on loopback, speaking its wire format and applying its rules. Each rule's
 * source is beside it; every error body is JSON:API `{errors: [{id, status, code, title,
 * detail, source}]}` (the ClientError schema of Klaviyo's OpenAPI documents,
 * github.com/klaviyo/openapi openapi/stable/apis/*.json).
 * - `Authorization: Klaviyo-API-Key <private key>`: 401 `not_authenticated` otherwise.
 * - `revision`: required, `YYYY-MM-DD[.suffix]` (400 `invalid_revision` otherwise); a revision
 *   more than two years old is retired and answered 410 (revisionRule below).
 * - Scopes: each key holds a set; an endpoint whose scope the key lacks is 403
 *   `permission_denied` naming the scope. A key's access to an API is Read or Full, and Full
 *   includes Read, so `profiles:write` grants `profiles:read` (Klaviyo Help Center, "How to
 *   create a private API key", help.klaviyo.com/hc/en-us/articles/7423954176283).
 * - `POST /api/profile-import` (profiles:write): upsert by e-mail; creates the profile when
 *   none has the e-mail (201), updates it otherwise (200); properties merged,
 *   `meta.patch_properties.unset` removes keys (developers.klaviyo.com/en/reference/create_or_update_profile).
 * - `GET /api/profiles` (profiles:read): `filter=equals(email,"…")`, `page[size]` 1–100
 *   (openapi/stable/apis/get_profiles.json; filter syntax developers.klaviyo.com/en/docs/filtering_).
 * - `PATCH /api/profiles/{id}` (profiles:write): 404 for an unknown id; attributes set,
 *   `meta.patch_properties.unset` removes keys (openapi/stable/apis/update_profile.json).
 * - `POST /api/data-privacy-deletion-jobs` (data-privacy:write): `data-privacy-deletion-job`
 *   with the profile's e-mail; 202 with no body, and the profiles with that e-mail are deleted
 *   (openapi/stable/apis/request_profile_deletion.json; Klaviyo deletes asynchronously, the
 *   fake at once).
 * - `GET /api/accounts` (accounts:read): the key's account (openapi/stable/apis/get_accounts.json).
 * - Scripted 429s (`throttled`, with Retry-After), as its burst and steady limits answer.
 */
import { randomUUID } from "node:crypto";
import type http from "node:http";
import {
  type FakeHttpService,
  type FakeRequest,
  startFakeHttpService,
} from "../support/fake-http-service.js";

export interface KlaviyoProfile {
  id: string;
  email: string;
  first_name?: string;
  last_name?: string;
  properties: Record<string, unknown>;
}

/** The scopes Velvet's documentation asks for: Profiles full access and Data Privacy. */
export const DOCUMENTED_SCOPES = ["profiles:write", "data-privacy:write"];

export interface FakeKlaviyoOptions {
  /** "Today" for the revision rule (default: the wall clock). */
  now?: () => number;
}

export interface FakeKlaviyo {
  baseUrl: string;
  /** A private key with exactly the documented scopes (DOCUMENTED_SCOPES). */
  apiKey: string;
  /** A private key with Profiles read access only. */
  readOnlyKey: string;
  /** A new private key holding these scopes. */
  keyWith(scopes: string[]): string;
  profiles: Map<string, KlaviyoProfile>;
  /** The e-mails of the deletion jobs asked for, in order. */
  deletionJobs: string[];
  requests: {
    method: string;
    path: string;
    query: URLSearchParams;
    headers: http.IncomingHttpHeaders;
    body: unknown;
  }[];
  /** The next `n` calls answer 429 with `Retry-After: seconds`. */
  throttle(n: number, seconds: number): void;
  /** Answers for the next calls, before the fake's rules (an outage: a 503 with Retry-After). */
  script: FakeHttpService["script"];
  close(): Promise<void>;
}

const JSON_API = "application/vnd.api+json";

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

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

/**
 * Klaviyo's revision lifecycle: stable for a year, deprecated for a second, then retired and
 * answered 410 Gone (developers.klaviyo.com/en/docs/api_versioning_and_deprecation_policy).
 * The format is `YYYY-MM-DD[.suffix]` (the `revision` header parameter of every operation in
 * Klaviyo's OpenAPI documents). The 410's body words are the fake's own: Klaviyo documents the
 * status, not the text.
 */
function revisionRule(revision: string, now: number): Answer | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(\.\w+)?$/.exec(revision);
  const released = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NaN;
  if (m === null || Number.isNaN(released) || new Date(released).getUTCDate() !== Number(m[3]))
    return error(
      400,
      "invalid_revision",
      "Invalid revision.",
      "A valid revision header is required (YYYY-MM-DD).",
    );
  const d = new Date(released);
  const retiredAt = Date.UTC(d.getUTCFullYear() + 2, d.getUTCMonth(), d.getUTCDate());
  if (now >= retiredAt)
    return error(
      410,
      "gone",
      "Gone.",
      `Revision ${revision} was retired on ${new Date(retiredAt).toISOString().slice(0, 10)}.`,
    );
  return null;
}

/** Which scope each endpoint needs (its `x-klaviyo-scopes` in Klaviyo's OpenAPI documents). */
function routeOf(method: string, path: string): { route: string; scope: string } | null {
  if (method === "GET" && path === "/api/accounts")
    return { route: "accounts", scope: "accounts:read" };
  if (method === "GET" && path === "/api/profiles")
    return { route: "get-profiles", scope: "profiles:read" };
  if (method === "PATCH" && /^\/api\/profiles\/[^/]+$/.test(path))
    return { route: "update-profile", scope: "profiles:write" };
  if (method === "POST" && path === "/api/profile-import")
    return { route: "profile-import", scope: "profiles:write" };
  if (method === "POST" && path === "/api/data-privacy-deletion-jobs")
    return { route: "deletion-job", scope: "data-privacy:write" };
  return null;
}

function holds(scopes: Set<string>, needed: string): boolean {
  if (scopes.has(needed)) return true;
  // Full access (write) includes read access to the same API.
  return needed.endsWith(":read") && scopes.has(needed.replace(/:read$/, ":write"));
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export async function startFakeKlaviyo(options: FakeKlaviyoOptions = {}): Promise<FakeKlaviyo> {
  const now = options.now ?? (() => Date.now());
  const keys = new Map<string, Set<string>>();
  const keyWith = (scopes: string[]) => {
    const key = `pk_${randomUUID().replace(/-/g, "").slice(0, 30)}`;
    keys.set(key, new Set(scopes));
    return key;
  };
  const apiKey = keyWith(DOCUMENTED_SCOPES);
  const readOnlyKey = keyWith(["profiles:read"]);
  const profiles = new Map<string, KlaviyoProfile>();
  const deletionJobs: string[] = [];
  const requests: FakeKlaviyo["requests"] = [];
  let throttled = 0;
  let throttleSeconds = 1;

  const profileDocument = (p: KlaviyoProfile) => ({
    type: "profile",
    id: p.id,
    attributes: {
      email: p.email,
      first_name: p.first_name ?? null,
      last_name: p.last_name ?? null,
      properties: p.properties,
    },
  });
  const applyUnset = (p: KlaviyoProfile, meta: unknown) => {
    const unset = (meta as { patch_properties?: { unset?: string | string[] } } | undefined)
      ?.patch_properties?.unset;
    for (const name of typeof unset === "string" ? [unset] : (unset ?? []))
      delete p.properties[name];
  };
  const setAttributes = (p: KlaviyoProfile, attributes: Record<string, unknown>) => {
    for (const name of ["first_name", "last_name"] as const) {
      if (typeof attributes[name] === "string") p[name] = attributes[name] as string;
    }
    Object.assign(p.properties, (attributes.properties ?? {}) as Record<string, unknown>);
  };

  function handle(req: FakeRequest): Answer {
    const { raw, method } = req;
    const url = { pathname: req.path, searchParams: req.query };
    let body: unknown = null;
    try {
      body = raw === "" ? null : JSON.parse(raw);
    } catch {
      return error(400, "parse_error", "Malformed request.", "The request body is not valid JSON.");
    }
    requests.push({
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
    });
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
    const scopes = keys.get(key);
    if (scopes === undefined)
      return error(
        401,
        "not_authenticated",
        "Authentication credentials were not provided.",
        "Missing or invalid private key.",
      );
    const refusedRevision = revisionRule(String(req.headers.revision ?? ""), now());
    if (refusedRevision !== null) return refusedRevision;
    const route = routeOf(method, url.pathname);
    if (route === null)
      return error(404, "not_found", "Not found.", `No route ${method} ${url.pathname}.`);
    if (!holds(scopes, route.scope))
      return error(
        403,
        "permission_denied",
        "You do not have permission to perform this action.",
        `This API key is missing required scopes: ${route.scope}.`,
      );
    if (method !== "GET" && !String(req.headers["content-type"] ?? "").startsWith(JSON_API))
      return error(415, "unsupported_media_type", "Unsupported media type.", `Use ${JSON_API}.`);
    const data = (body as { data?: Record<string, unknown> } | null)?.data;

    if (route.route === "accounts")
      return { status: 200, body: { data: [{ type: "account", id: "XyZ123", attributes: {} }] } };

    if (route.route === "get-profiles") {
      const size = Number(url.searchParams.get("page[size]") ?? "20");
      if (!Number.isInteger(size) || size < 1 || size > 100)
        return error(400, "invalid", "Invalid input.", "page[size] must be 1 to 100.");
      const filter = url.searchParams.get("filter");
      let found = [...profiles.values()];
      if (filter !== null) {
        const m = /^equals\(email,"((?:[^"\\]|\\.)*)"\)$/.exec(filter);
        if (m === null)
          return error(400, "invalid", "Invalid input.", `Invalid filter provided: ${filter}`);
        const email = (m[1] as string).replace(/\\(.)/g, "$1").toLowerCase();
        found = found.filter((p) => p.email.toLowerCase() === email);
      }
      return {
        status: 200,
        body: { data: found.slice(0, size).map(profileDocument), links: { next: null } },
      };
    }

    if (route.route === "update-profile") {
      const id = decodeURIComponent(url.pathname.slice("/api/profiles/".length));
      const profile = [...profiles.values()].find((p) => p.id === id);
      if (data?.type !== "profile" || data.id !== id)
        return error(
          400,
          "invalid",
          "Invalid input.",
          "The profile id does not match.",
          "/data/id",
        );
      if (profile === undefined)
        return error(404, "not_found", "Not found.", `A profile with id ${id} does not exist.`);
      setAttributes(profile, (data.attributes ?? {}) as Record<string, unknown>);
      applyUnset(profile, data.meta);
      return { status: 200, body: { data: profileDocument(profile) } };
    }

    if (route.route === "deletion-job") {
      const email = (
        data?.attributes as
          | { profile?: { data?: { type?: string; attributes?: { email?: unknown } } } }
          | undefined
      )?.profile?.data?.attributes?.email;
      if (data?.type !== "data-privacy-deletion-job")
        return error(
          400,
          "invalid",
          "Invalid input.",
          "'data-privacy-deletion-job' expected.",
          "/data/type",
        );
      if (typeof email !== "string" || !EMAIL.test(email))
        return error(
          400,
          "invalid",
          "Invalid input.",
          "Invalid email address",
          "/data/attributes/profile/data/attributes/email",
        );
      deletionJobs.push(email);
      profiles.delete(email.toLowerCase());
      return { status: 202 };
    }

    // profile-import
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
    if (typeof email !== "string" || !EMAIL.test(email))
      return error(
        400,
        "invalid",
        "Invalid input.",
        "Invalid email address",
        "/data/attributes/email",
      );
    const existing = profiles.get(email.toLowerCase());
    const profile: KlaviyoProfile = existing ?? { id: randomUUID(), email, properties: {} };
    setAttributes(profile, attributes);
    applyUnset(profile, data.meta);
    profiles.set(email.toLowerCase(), profile);
    return { status: existing === undefined ? 201 : 200, body: { data: profileDocument(profile) } };
  }

  // Klaviyo answers JSON:API; an answer without a body (a 202) has no content type.
  const service = await startFakeHttpService({ answer: handle, jsonType: JSON_API });
  return {
    baseUrl: service.url,
    apiKey,
    readOnlyKey,
    keyWith,
    profiles,
    deletionJobs,
    requests,
    throttle: (n, seconds) => {
      throttled = n;
      throttleSeconds = seconds;
    },
    script: service.script,
    close: () => service.close(),
  };
}
