/**
 * Who may use a dashboard route, declared on the route (`config: { access }`) and checked on the
 * server before the route runs, with the role read from the database on every request (a
 * demotion applies to the very next request).
 *
 * Deny by default: a route that declares nothing is for admins and owners, so a page added
 * tomorrow without thinking about roles is never open to members. Members' routes say
 * `access: "member"`, owner-only ones `"owner"`, and pages for visitors (log-in, links from
 * e-mails) `"public"` (the dashboard registers those in a context with `visitorsByDefault`). The test in team/role-rules.test.ts walks every registered route.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import type { Deps } from "../../../deps.js";
import { atLeast, type UserRole } from "../../team/roles.js";
import { sendRoleForbiddenPage } from "../html/error-pages.js";
import { actionOptions, pageOptions } from "./guards.js";

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

/** `pageOptions` / `actionOptions` of guards.ts, for members or for owners only. */
export const memberPage = { ...pageOptions, ...forMembers };
export const ownerPage = { ...pageOptions, ...forOwners };
export function ownerAction(deps: Pick<Deps, "config">) {
  return { ...actionOptions(deps), ...forOwners };
}

/**
 * An onRoute hook for a context of visitor pages (log-in, sign-up, links from e-mails): its
 * routes are public unless they declare otherwise (log-out is for members).
 */
export function visitorsByDefault(route: RouteOptions): void {
  route.config = { ...route.config, access: route.config?.access ?? "public" };
}

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
