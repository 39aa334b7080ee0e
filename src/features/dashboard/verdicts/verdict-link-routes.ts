/**
 * The "Right" / "Not a VIP" links of an alert's e-mail and chat message: GET /verdict shows a
 * page with one button (mail scanners and chat previews that open links must not record a
 * verdict), POST records it. No sign-in: whoever reads the alert may say whether the VIP is
 * right. A link that is forged, altered or more than 90 days old gets the 400 page. A genuine
 * link's page names the customer as little as tells who it is about ("Jane D.": the alert
 * itself gave the full name to whoever holds the link), and nothing else of theirs.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Deps } from "../../../deps.js";
import {
  checkVerdictLink,
  type VerdictLinkQuery,
  verdictFromLink,
} from "../../verdicts/verdict-from-link.js";
import { VERDICT_LABELS, VERDICT_LINK_PATH } from "../../verdicts/verdict-links.js";
import { html } from "../html/html.js";
import { bareCard } from "../html/layout.js";
import { formField } from "../http/form-body.js";
import { sendPage } from "../http/respond.js";
import { loginCsrfToken, verifyLoginCsrf } from "../session/guards.js";

function linkOf(source: Record<string, unknown> | undefined): VerdictLinkQuery {
  const text = (name: string) => {
    const value = source?.[name];
    return typeof value === "string" ? value : "";
  };
  return { alert: text("alert"), verdict: text("verdict"), token: text("token") };
}

function sendInvalid(reply: FastifyReply): FastifyReply {
  return sendPage(
    reply,
    bareCard(
      "Link not valid",
      html`<h1>This link cannot be used</h1>
<p>It is incomplete, was changed, is more than 90 days old, or the customer's data was deleted. You can still give your verdict on the customer's page in Velvet.</p>`,
    ),
    400,
  );
}

export function registerVerdictLinkRoutes(app: FastifyInstance, deps: Deps): void {
  app.get(VERDICT_LINK_PATH, async (request, reply) => {
    const link = linkOf(request.query as Record<string, unknown>);
    const valid = await checkVerdictLink(deps.db.kysely, link, deps.clock.now());
    if (valid === null) return sendInvalid(reply);
    const csrf = loginCsrfToken(request, reply);
    const label = VERDICT_LABELS[valid.verdict];
    const who = valid.customerName;
    const question =
      valid.verdict === "right"
        ? `Record that the VIP alert about ${who} was right?`
        : `Record that ${who} is not a VIP?`;
    return sendPage(
      reply,
      bareCard(
        "VIP verdict",
        html`<h1>${question}</h1>
<p>Your verdict tells your team how precise Velvet's VIP alerts are. Nothing is recorded until you press the button.</p>
<form method="post" action="${VERDICT_LINK_PATH}">
  <input type="hidden" name="_csrf" value="${csrf}">
  <input type="hidden" name="alert" value="${link.alert}">
  <input type="hidden" name="verdict" value="${link.verdict}">
  <input type="hidden" name="token" value="${link.token}">
  <button type="submit">Record: ${label}</button>
</form>`,
      ),
    );
  });

  app.post(VERDICT_LINK_PATH, { preHandler: verifyLoginCsrf(deps) }, async (request, reply) => {
    const body = request.body;
    const link = {
      alert: formField(body, "alert"),
      verdict: formField(body, "verdict"),
      token: formField(body, "token"),
    };
    const outcome = await verdictFromLink(deps.db.kysely, link, deps.clock.now());
    if (outcome === null || outcome.kind === "not_found") return sendInvalid(reply);
    if (outcome.kind === "not_vip") {
      return sendPage(
        reply,
        bareCard(
          "Not recorded",
          html`<h1>Nothing was recorded</h1>
<p>${outcome.link.customerName} is no longer a VIP (their score was worked out again), so there is nothing to judge.</p>`,
        ),
        400,
      );
    }
    const url = `${deps.config.publicBaseUrl}/customers/${outcome.customerId}`;
    return sendPage(
      reply,
      bareCard(
        "Verdict recorded",
        html`<h1>Recorded: ${VERDICT_LABELS[outcome.verdict]} (${outcome.link.customerName})</h1>
<p>Thank you. Velvet counts your verdict in the precision shown beside the VIP threshold.</p>
<p>Changed your mind? Give another verdict on <a href="${url}">the customer's page</a> (sign-in needed), or use the other link in the alert: the latest verdict counts.</p>`,
      ),
    );
  });
}
