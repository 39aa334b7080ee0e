/**
 * POST /customers/:customerId/verdict: a team member's "Right" / "Not a VIP" on a VIP (members
 * may: judging a VIP is part of acting on alerts). Returns to the page the form was on.
 */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { isUuid } from "../../../lib/ids.js";
import { userActor } from "../../audit/audit-actor.js";
import { NOT_A_VIP_MESSAGE, recordVerdict } from "../../verdicts/record-verdict.js";
import { isVerdict } from "../../verdicts/verdict-links.js";
import { sendErrorPage, sendNotFoundPage } from "../html/error-pages.js";
import { formField } from "../http/form-body.js";
import { seeOther } from "../http/respond.js";
import { actionOptions, safeNext, sessionOf } from "../session/guards.js";
import { forMembers } from "../session/role-guard.js";

/** Where the form may send the browser back to: the customer page or the alert log. */
function backTo(back: string, customerId: string): string {
  const safe = safeNext(back);
  return safe.startsWith("/alerts") || safe === `/customers/${customerId}`
    ? safe
    : `/customers/${customerId}`;
}

export function registerVerdictRoutes(app: FastifyInstance, deps: Deps): void {
  app.post<{ Params: { customerId: string } }>(
    "/customers/:customerId/verdict",
    { ...actionOptions(deps), ...forMembers },
    async (request, reply) => {
      const session = sessionOf(request);
      const customerId = request.params.customerId.toLowerCase();
      const verdict = formField(request.body, "verdict");
      if (!isUuid(customerId)) return sendNotFoundPage(reply, session);
      if (!isVerdict(verdict))
        return sendErrorPage(reply, 400, "Choose Right or Not a VIP.", session);
      const outcome = await recordVerdict(
        deps.db.kysely,
        {
          accountId: session.accountId,
          customerId,
          verdict,
          source: "dashboard",
          givenBy: session.userId,
          actor: userActor(session.userEmail),
        },
        deps.clock.now(),
      );
      if (outcome.kind === "not_found") return sendNotFoundPage(reply, session);
      if (outcome.kind === "not_vip") return sendErrorPage(reply, 400, NOT_A_VIP_MESSAGE, session);
      return seeOther(reply, backTo(formField(request.body, "back"), customerId));
    },
  );
}
