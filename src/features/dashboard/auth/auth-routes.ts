/** GET/POST /login, POST /logout (sign-up: sign-up-routes.ts). */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { userActor } from "../../audit/audit-actor.js";
import { recordAuditEvent } from "../../audit/record-audit-event.js";
import { normalizeEmail } from "../../orders/email-address.js";
import type { Notice } from "../html/components.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import { deleteSession } from "../session/create-session.js";
import {
  clearSessionCookie,
  loginCsrfToken,
  requireSession,
  safeNext,
  verifyLoginCsrf,
  verifySessionCsrf,
} from "../session/guards.js";
import { forMembers } from "../session/role-guard.js";
import { loginView } from "./auth-views.js";
import { logIn } from "./log-in.js";
import { signUpOpen } from "./sign-up.js";
import { startSession, throttled } from "./start-session.js";

const LOGIN_NOTICES: Record<string, Notice> = {
  "logged-out": { kind: "info", text: "You are logged out." },
  "password-reset": {
    kind: "success",
    text: "Your password is changed and every session is signed out. Log in with the new password.",
  },
  "account-closed": {
    kind: "info",
    text: "Your account is closed: its keys are revoked and its customers' data is being deleted.",
  },
};

export function registerAuthRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Querystring: { next?: string; notice?: string } }>("/login", async (request, reply) => {
    if (request.dashboardSession) return seeOther(reply, "/");
    const next = typeof request.query.next === "string" ? safeNext(request.query.next) : "/";
    const noticeKey = request.query.notice ?? "";
    return sendPage(
      reply,
      loginView({
        csrfToken: loginCsrfToken(request, reply),
        next: next === "/" ? "" : next,
        notice: LOGIN_NOTICES[noticeKey] ?? null,
        signUpOpen: await signUpOpen(deps),
      }),
    );
  });

  app.post("/login", { preHandler: verifyLoginCsrf(deps) }, async (request, reply) => {
    const email = formField(request.body, "email");
    const next = safeNext(formField(request.body, "next") || "/");
    const result = await logIn(deps, {
      email,
      password: formField(request.body, "password"),
      ip: request.ip,
    });
    const actor = userActor(normalizeEmail(email));
    if (result.kind === "invalid" && result.accountId !== undefined) {
      const event = { accountId: result.accountId, actor, action: "user.sign_in_failed" } as const;
      await recordAuditEvent(
        deps.db.kysely,
        { ...event, details: { ip: request.ip } },
        deps.clock.now(),
      );
    }
    if (result.kind !== "ok") {
      const view = loginView({
        csrfToken: loginCsrfToken(request, reply),
        email: email.trim(),
        next: next === "/" ? "" : next,
        notice:
          result.kind === "throttled"
            ? throttled(reply, result.retryAfterMs)
            : { kind: "error", text: "That e-mail and password do not match an account." },
        signUpOpen: await signUpOpen(deps),
      });
      return sendPage(reply, view, result.kind === "throttled" ? 429 : 401);
    }
    await startSession(deps, request, reply, result);
    await recordAuditEvent(
      deps.db.kysely,
      { accountId: result.accountId, actor, action: "user.signed_in", details: { ip: request.ip } },
      deps.clock.now(),
    );
    return seeOther(reply, next);
  });

  app.post(
    "/logout",
    { ...forMembers, preHandler: [requireSession, verifySessionCsrf(deps)] },
    async (request, reply) => {
      const session = request.dashboardSession;
      if (session) await deleteSession(deps.db.kysely, session.rawId);
      clearSessionCookie(request, reply);
      return seeOther(reply, "/login?notice=logged-out");
    },
  );
}
