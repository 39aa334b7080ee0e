/**
 * Visitor pages (no session needed): "Forgot password?", the reset link, the invitation link.
 * The links only show a form on GET (a mail scanner fetching them uses nothing up); the POST
 * carries the pre-session CSRF token like the log-in form.
 */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import type { AlertsDeps } from "../../alerts/alert-deps.js";
import { DEVICE_COOKIE } from "../../security/known-device.js";
import { acceptInvitation, findInvitation } from "../../team/accept-invitation.js";
import { findResetLink, requestPasswordReset, resetPassword } from "../../team/password-reset.js";
import { INVITATION_PATH, RESET_PATH } from "../../team/team-links.js";
import { startSession, throttled } from "../auth/start-session.js";
import { readCookie } from "../http/cookies.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import { loginCsrfToken, verifyLoginCsrf } from "../session/guards.js";
import {
  acceptView,
  FORGOT_NO_MAIL,
  FORGOT_SENT,
  forgotView,
  linkGoneView,
  resetView,
} from "./password-views.js";

type WithToken = { Querystring: { token?: string } };
const tokenOf = (q: { token?: string }) => (typeof q.token === "string" ? q.token : "");

export function registerPasswordResetRoutes(app: FastifyInstance, deps: Deps & AlertsDeps): void {
  const visitorForm = { preHandler: verifyLoginCsrf(deps) };

  app.get("/password/forgot", async (request, reply) => {
    return sendPage(reply, forgotView({ csrfToken: loginCsrfToken(request, reply) }));
  });

  app.post("/password/forgot", visitorForm, async (request, reply) => {
    const email = formField(request.body, "email").trim();
    const result = await requestPasswordReset(deps, {
      email,
      ip: request.ip,
      deviceToken: readCookie(request, DEVICE_COOKIE),
    });
    const csrfToken = loginCsrfToken(request, reply);
    if (result.kind === "throttled")
      return sendPage(
        reply,
        forgotView({ csrfToken, email, notice: throttled(reply, result.retryAfterMs) }),
        429,
      );
    return sendPage(
      reply,
      forgotView({ csrfToken, notice: result.mailed ? FORGOT_SENT : FORGOT_NO_MAIL }),
    );
  });

  app.get<WithToken>(RESET_PATH, async (request, reply) => {
    const token = tokenOf(request.query);
    const link = await findResetLink(deps, token);
    if (!link) return sendPage(reply, linkGoneView("reset"), 410);
    const csrfToken = loginCsrfToken(request, reply);
    return sendPage(
      reply,
      resetView({ csrfToken, token, email: link.email, firstPassword: !link.hasPassword }),
    );
  });

  app.post(RESET_PATH, visitorForm, async (request, reply) => {
    const token = formField(request.body, "token");
    const link = await findResetLink(deps, token);
    const result = await resetPassword(deps, {
      token,
      password: formField(request.body, "password"),
    });
    if (result.kind === "invalid") return sendPage(reply, linkGoneView("reset"), 410);
    if (result.kind === "weak") {
      const csrfToken = loginCsrfToken(request, reply);
      const firstPassword = link !== null && !link.hasPassword;
      const view = resetView({
        csrfToken,
        token,
        email: result.email,
        firstPassword,
        error: result.problem,
      });
      return sendPage(reply, view, 400);
    }
    return seeOther(reply, "/login?notice=password-reset");
  });

  app.get<WithToken>(INVITATION_PATH, async (request, reply) => {
    const token = tokenOf(request.query);
    const invitation = await findInvitation(deps, token);
    if (!invitation) return sendPage(reply, linkGoneView("invitation"), 410);
    const csrfToken = loginCsrfToken(request, reply);
    return sendPage(reply, acceptView({ csrfToken, token, ...invitation }));
  });

  app.post(INVITATION_PATH, visitorForm, async (request, reply) => {
    const token = formField(request.body, "token");
    const result = await acceptInvitation(deps, {
      token,
      password: formField(request.body, "password"),
    });
    if (result.kind === "invalid") return sendPage(reply, linkGoneView("invitation"), 410);
    if (result.kind === "weak-password") {
      const csrfToken = loginCsrfToken(request, reply);
      const view = acceptView({ csrfToken, token, ...result.invitation, error: result.problem });
      return sendPage(reply, view, 400);
    }
    await startSession(deps, request, reply, result);
    return seeOther(reply, "/");
  });
}
