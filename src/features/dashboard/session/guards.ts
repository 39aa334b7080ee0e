/**
 * The request pipeline of every dashboard page: read the session cookie → require a session
 * (pages redirect to /login) → on POST, check the origin and the CSRF token (403 otherwise).
 *
 * CSRF: a signed-in form carries the session's token; the sign-in and sign-up forms, which
 * have no session yet, carry a random token that must match a cookie of the same value
 * (double submit), so a third-party site cannot sign a visitor into its own account either.
 * The Origin (or Referer) check is defence in depth: when a browser sends either, it must be us.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../../../deps.js";
import { sendForbiddenPage } from "../html/error-pages.js";
import { clearCookie, readCookie, setCookie } from "../http/cookies.js";
import { formField } from "../http/form-body.js";
import { seeOther } from "../http/respond.js";
import type { DashboardSession } from "./dashboard-session.js";
import { loadSession } from "./load-session.js";
import { isWellFormedSecret, newSecret, SESSION_ABSOLUTE_MS, safeEqual } from "./session-token.js";

export const SESSION_COOKIE = "velvet_session";
export const LOGIN_CSRF_COOKIE = "velvet_csrf";

export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === "https";
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  rawId: string,
): void {
  setCookie(request, reply, SESSION_COOKIE, rawId, { maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000 });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  clearCookie(request, reply, SESSION_COOKIE);
}

/** The pre-session CSRF token for the sign-in forms: the cookie's, or a new one set now. */
export function loginCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookie(request, LOGIN_CSRF_COOKIE);
  if (existing !== undefined && isWellFormedSecret(existing)) return existing;
  const token = newSecret();
  setCookie(request, reply, LOGIN_CSRF_COOKIE, token);
  return token;
}

export function sessionHook(deps: Pick<Deps, "db" | "clock">) {
  return async (request: FastifyRequest): Promise<void> => {
    const session = await loadSession(deps, readCookie(request, SESSION_COOKIE));
    if (session) request.dashboardSession = session;
  };
}

/** Pages need a session: a GET goes to /login and comes back after; a POST changes nothing. */
export async function requireSession(request: FastifyRequest, reply: FastifyReply) {
  if (request.dashboardSession) return;
  const path = request.url;
  const next = request.method === "GET" && path !== "/" ? `?next=${encodeURIComponent(path)}` : "";
  return seeOther(reply, `/login${next}`);
}

export function sameOrigin(request: FastifyRequest, publicBaseUrl: string): boolean {
  const claimed = request.headers.origin ?? refererOrigin(request.headers.referer);
  if (claimed === undefined) return true;
  const allowed = new Set([`${request.protocol}://${request.host}`, new URL(publicBaseUrl).origin]);
  return allowed.has(claimed);
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "invalid";
  }
}

/** For forms of a signed-in user: the session's token. Runs after requireSession. */
export function verifySessionCsrf(deps: Pick<Deps, "config">) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const session = request.dashboardSession;
    const token = formField(request.body, "_csrf");
    if (
      !session ||
      !sameOrigin(request, deps.config.publicBaseUrl) ||
      !safeEqual(token, session.csrfToken)
    ) {
      return sendForbiddenPage(reply, session);
    }
  };
}

/** For the sign-in and sign-up forms: the field must match the pre-session cookie. */
export function verifyLoginCsrf(deps: Pick<Deps, "config">) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const cookie = readCookie(request, LOGIN_CSRF_COOKIE) ?? "";
    const token = formField(request.body, "_csrf");
    if (
      !sameOrigin(request, deps.config.publicBaseUrl) ||
      !isWellFormedSecret(cookie) ||
      !safeEqual(token, cookie)
    ) {
      return sendForbiddenPage(reply);
    }
  };
}

/**
 * Only same-site paths are followed after sign-in (no open redirect through ?next=): one `/`
 * first, then printable ASCII only (a control character or a non-ASCII one cannot go in the
 * Location header), no backslash (browsers read it as `/`) and no `//` anywhere.
 */
export function safeNext(next: string): string {
  return /^\/[\x21-\x5b\x5d-\x7e]*$/.test(next) &&
    !next.includes("//") &&
    !next.startsWith("/login")
    ? next
    : "/";
}

/** Route options for a page (GET) and for an action (POST that changes something). */
export const pageOptions = { preHandler: [requireSession] };
export function actionOptions(deps: Pick<Deps, "config">) {
  return { preHandler: [requireSession, verifySessionCsrf(deps)] };
}

/** The signed-in session of a route behind requireSession. */
export function sessionOf(request: FastifyRequest): DashboardSession {
  const session = request.dashboardSession;
  if (!session) throw new Error("sessionOf called on a route without requireSession");
  return session;
}
