/** GET/POST /login, GET/POST /signup, POST /logout. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../../../deps.js";
import { userActor } from "../../audit/audit-actor.js";
import { recordAuditEvent } from "../../audit/record-audit-event.js";
import { normalizeEmail } from "../../orders/email-address.js";
import { flashKey } from "../api-access/key-flash.js";
import type { Notice } from "../html/components.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import { createSession, deleteSession } from "../session/create-session.js";
import {
  clearSessionCookie,
  cookiesOf,
  loginCsrfToken,
  requireSession,
  SESSION_COOKIE,
  safeNext,
  setSessionCookie,
  verifyLoginCsrf,
  verifySessionCsrf,
} from "../session/guards.js";
import { loginView, signUpView } from "./auth-views.js";
import { logIn } from "./log-in.js";
import { signUp } from "./sign-up.js";

const LOGIN_NOTICES: Record<string, Notice> = {
  "logged-out": { kind: "info", text: "You are logged out." },
  "account-closed": {
    kind: "info",
    text: "Your account is closed: its keys are revoked and its customers' data is being deleted.",
  },
};

function throttledNotice(retryAfterMs: number): Notice {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return {
    kind: "error",
    text: `Too many attempts. For your security, try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  };
}

async function startSession(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { userId: string; accountId: string },
): Promise<string> {
  // Whatever session the browser brought is ended: the signed-in user gets a fresh id.
  const previous = cookiesOf(request).get(SESSION_COOKIE);
  if (previous !== undefined) await deleteSession(deps.db.kysely, previous);
  const session = await createSession(deps.db.kysely, user, deps.clock.now());
  setSessionCookie(request, reply, session.rawId);
  return session.rawId;
}

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
      const throttled = result.kind === "throttled";
      if (throttled) reply.header("retry-after", String(Math.ceil(result.retryAfterMs / 1000)));
      const view = loginView({
        csrfToken: loginCsrfToken(request, reply),
        email: email.trim(),
        next: next === "/" ? "" : next,
        notice: throttled
          ? throttledNotice(result.retryAfterMs)
          : { kind: "error", text: "That e-mail and password do not match an account." },
      });
      return sendPage(reply, view, throttled ? 429 : 401);
    }
    await startSession(deps, request, reply, result);
    await recordAuditEvent(
      deps.db.kysely,
      { accountId: result.accountId, actor, action: "user.signed_in", details: { ip: request.ip } },
      deps.clock.now(),
    );
    return seeOther(reply, next);
  });

  app.get("/signup", async (request, reply) => {
    if (request.dashboardSession) return seeOther(reply, "/");
    return sendPage(reply, signUpView({ csrfToken: loginCsrfToken(request, reply) }));
  });

  app.post("/signup", { preHandler: verifyLoginCsrf(deps) }, async (request, reply) => {
    const values = {
      storeName: formField(request.body, "storeName"),
      email: formField(request.body, "email"),
    };
    const result = await signUp(deps, {
      ...values,
      password: formField(request.body, "password"),
      ip: request.ip,
    });
    if (result.kind !== "ok") {
      const csrfToken = loginCsrfToken(request, reply);
      if (result.kind === "invalid")
        return sendPage(reply, signUpView({ csrfToken, values, errors: result.errors }), 400);
      if (result.kind === "throttled") {
        reply.header("retry-after", String(Math.ceil(result.retryAfterMs / 1000)));
        return sendPage(
          reply,
          signUpView({ csrfToken, values, notice: throttledNotice(result.retryAfterMs) }),
          429,
        );
      }
      const text = "An account with this e-mail already exists. Log in instead.";
      return sendPage(reply, signUpView({ csrfToken, values, errors: { email: text } }), 409);
    }
    const rawId = await startSession(deps, request, reply, result);
    await recordAuditEvent(
      deps.db.kysely,
      {
        accountId: result.accountId,
        actor: userActor(normalizeEmail(values.email)),
        action: "account.created",
        details: { ip: request.ip },
      },
      deps.clock.now(),
    );
    // The account's first key is shown once, on the page that explains how to use it.
    flashKey(
      request,
      reply,
      rawId,
      { keyId: result.keyId, apiKey: result.apiKey },
      deps.clock.now(),
    );
    return seeOther(reply, "/settings/integrations?welcome=1");
  });

  app.post(
    "/logout",
    { preHandler: [requireSession, verifySessionCsrf(deps)] },
    async (request, reply) => {
      const session = request.dashboardSession;
      if (session) await deleteSession(deps.db.kysely, session.rawId);
      clearSessionCookie(request, reply);
      return seeOther(reply, "/login?notice=logged-out");
    },
  );
}
