/**
 * Who may use a dashboard route, declared on the route (`config: { access }`) and checked on the
 * server before the route runs, with the role read from the database on every request (a
 * demotion applies to the very next request).
 *
 * Deny by default: a route that declares nothing is for admins and owners, so a page added
 * tomorrow without thinking about roles is never open to members. Members' routes say
 * `access: "member"`, owner-only ones `"owner"`, and pages for visitors (log-in, links from
 * e-mails) `"public"`. The test in team/role-rules.test.ts walks every registered route.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { atLeast, type UserRole } from "../../team/roles.js";
import { sendRoleForbiddenPage } from "../html/error-pages.js";

export type RouteAccess = UserRole | "public";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Lowest role that may use the route; default DEFAULT_ACCESS. */
    access?: RouteAccess;
  }
}

export const DEFAULT_ACCESS: RouteAccess = "admin";

export function routeAccess(request: FastifyRequest): RouteAccess {
  return request.routeOptions.config.access ?? DEFAULT_ACCESS;
}

/** Route options for each level, to spread into a route's options. */
export const forMembers = { config: { access: "member" as const } };
export const forOwners = { config: { access: "owner" as const } };
export const forVisitors = { config: { access: "public" as const } };

export const FORBIDDEN_MESSAGE = "Your role in this account does not allow this.";

/** A preHandler hook for the dashboard's pages: 403 (page, or JSON to a JSON client). */
export async function roleGuard(request: FastifyRequest, reply: FastifyReply) {
  const session = request.dashboardSession;
  // Without a session the route's own requireSession sends the visitor to /login.
  if (!session) return;
  const access = routeAccess(request);
  if (access === "public" || atLeast(session.role, access)) return;
  const accept = request.headers.accept ?? "";
  if (accept.includes("application/json") && !accept.includes("text/html")) {
    return reply
      .code(403)
      .header("cache-control", "no-store")
      .send({ error: "Forbidden", message: FORBIDDEN_MESSAGE });
  }
  return sendRoleForbiddenPage(reply, session);
}
