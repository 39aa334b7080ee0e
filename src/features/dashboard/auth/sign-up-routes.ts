/** GET/POST /signup, and the link of an open sign-up: GET/POST /signup/confirm. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../../../deps.js";
import { userActor } from "../../audit/audit-actor.js";
import { recordAuditEvent } from "../../audit/record-audit-event.js";
import { flashKey } from "../api-access/key-flash.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import { loginCsrfToken, verifyLoginCsrf } from "../session/guards.js";
import {
  checkInboxView,
  confirmSignUpView,
  signUpClosedView,
  signUpLinkInvalidView,
  signUpView,
} from "./auth-views.js";
import { confirmSignUp } from "./confirm-sign-up.js";
import { signUp, signUpOpen } from "./sign-up.js";
import { startSession, throttled } from "./start-session.js";

/** Signs the new owner in and shows the account's first key once, where it is explained. */
async function welcome(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  created: { userId: string; accountId: string; keyId: string; apiKey: string },
) {
  const rawId = await startSession(deps, request, reply, created);
  const owner = await deps.db.kysely
    .selectFrom("users")
    .select("email_normalized")
    .where("id", "=", created.userId)
    .executeTakeFirstOrThrow();
  await recordAuditEvent(
    deps.db.kysely,
    {
      accountId: created.accountId,
      actor: userActor(owner.email_normalized),
      action: "account.created",
      details: { ip: request.ip },
    },
    deps.clock.now(),
  );
  flashKey(
    request,
    reply,
    rawId,
    { keyId: created.keyId, apiKey: created.apiKey },
    deps.clock.now(),
  );
  return seeOther(reply, "/settings/integrations?welcome=1");
}

export function registerSignUpRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/signup", async (request, reply) => {
    if (request.dashboardSession) return seeOther(reply, "/");
    if (!(await signUpOpen(deps))) return sendPage(reply, signUpClosedView());
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
    const csrfToken = () => loginCsrfToken(request, reply);
    switch (result.kind) {
      case "ok":
        return welcome(deps, request, reply, result);
      case "check-inbox":
        return sendPage(reply, checkInboxView(values.email.trim()));
      case "closed":
        return sendPage(reply, signUpClosedView(), 403);
      case "invalid":
        return sendPage(
          reply,
          signUpView({ csrfToken: csrfToken(), values, errors: result.errors }),
          400,
        );
      case "throttled": {
        const notice = throttled(reply, result.retryAfterMs);
        return sendPage(reply, signUpView({ csrfToken: csrfToken(), values, notice }), 429);
      }
    }
  });

  // The mailed link only shows a button: mail scanners that fetch links must not use it up.
  app.get<{ Querystring: { token?: string } }>("/signup/confirm", async (request, reply) => {
    const token = typeof request.query.token === "string" ? request.query.token : "";
    return sendPage(reply, confirmSignUpView({ csrfToken: loginCsrfToken(request, reply), token }));
  });

  app.post("/signup/confirm", { preHandler: verifyLoginCsrf(deps) }, async (request, reply) => {
    const result = await confirmSignUp(deps, formField(request.body, "token"));
    if (result.kind !== "ok") return sendPage(reply, signUpLinkInvalidView(result.kind), 400);
    return welcome(deps, request, reply, result);
  });
}
