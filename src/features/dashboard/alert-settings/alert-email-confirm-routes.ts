/**
 * The confirmation link mailed to a new alert address: GET /alert-emails/confirm shows a button
 * (mail scanners that open links must not use it up), POST confirms. No session is needed: the
 * person confirming is whoever reads that mailbox, not necessarily the merchant.
 */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { confirmAlertEmail } from "../../alerts/alert-email-confirmation.js";
import { html } from "../html/html.js";
import { bareCard } from "../html/layout.js";
import { formField } from "../http/form-body.js";
import { sendPage } from "../http/respond.js";
import { loginCsrfToken, verifyLoginCsrf } from "../session/guards.js";

const PATH = "/alert-emails/confirm";

export function registerAlertEmailConfirmRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Querystring: { token?: string } }>(PATH, async (request, reply) => {
    const token = typeof request.query.token === "string" ? request.query.token : "";
    const csrf = loginCsrfToken(request, reply);
    return sendPage(
      reply,
      bareCard(
        "Confirm alert address",
        html`<h1>Receive VIP alerts here?</h1>
<p>A Velvet account asked to send its VIP customer alerts to this e-mail address. Confirm only if you expect them.</p>
<form method="post" action="${PATH}">
  <input type="hidden" name="_csrf" value="${csrf}">
  <input type="hidden" name="token" value="${token}">
  <button type="submit">Confirm this address</button>
</form>`,
      ),
    );
  });

  app.post(PATH, { preHandler: verifyLoginCsrf(deps) }, async (request, reply) => {
    const confirmed = await confirmAlertEmail(deps, formField(request.body, "token"));
    if (confirmed === null) {
      return sendPage(
        reply,
        bareCard(
          "Link not valid",
          html`<h1>This link cannot be used</h1>
<p>It was already used, is more than 7 days old, or the address was removed. Ask for a new link from Settings → Alerts.</p>`,
        ),
        400,
      );
    }
    return sendPage(
      reply,
      bareCard(
        "Address confirmed",
        html`<h1>Address confirmed</h1>
<p><strong>${confirmed.email}</strong> now receives VIP alerts.</p>`,
      ),
    );
  });
}
