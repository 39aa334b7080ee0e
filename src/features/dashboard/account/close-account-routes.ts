/**
 * GET /settings/account and POST /settings/account/close (password confirmation, checked under
 * the log-in throttle like every check of a current password).
 */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { userActor } from "../../audit/audit-actor.js";
import { closeAccount } from "../../privacy/close-account.js";
import { checkCurrentPassword } from "../../team/check-current-password.js";
import { throttled } from "../auth/start-session.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import { clearSessionCookie, sessionOf } from "../session/guards.js";
import { ownerAction, ownerPage } from "../session/role-guard.js";
import { closeAccountView } from "./close-account-view.js";

async function customerCount(deps: Deps, accountId: string): Promise<number> {
  const row = await deps.db.kysely
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("stores.account_id", "=", accountId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function registerCloseAccountRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/settings/account", ownerPage, async (request, reply) => {
    const session = sessionOf(request);
    const customers = await customerCount(deps, session.accountId);
    return sendPage(reply, closeAccountView({ session, customers }));
  });

  app.post("/settings/account/close", ownerAction(deps), async (request, reply) => {
    const session = sessionOf(request);
    const check = await checkCurrentPassword(deps, {
      userId: session.userId,
      email: session.userEmail,
      ip: request.ip,
      password: formField(request.body, "password"),
    });
    if (check.kind !== "ok") {
      const customers = await customerCount(deps, session.accountId);
      const error =
        check.kind === "throttled"
          ? throttled(reply, check.retryAfterMs).text
          : "That is not your password. Nothing was changed.";
      const status = check.kind === "throttled" ? 429 : 400;
      return sendPage(reply, closeAccountView({ session, customers, error }), status);
    }
    await closeAccount(deps, { accountId: session.accountId, actor: userActor(session.userEmail) });
    clearSessionCookie(request, reply);
    return seeOther(reply, "/login?notice=account-closed");
  });
}
