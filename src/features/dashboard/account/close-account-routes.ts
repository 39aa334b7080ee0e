/** GET /settings/account and POST /settings/account/close (password confirmation). */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { verifyPassword } from "../../accounts/password.js";
import { userActor } from "../../audit/audit-actor.js";
import { closeAccount } from "../../privacy/close-account.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import type { DashboardSession } from "../session/dashboard-session.js";
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

async function passwordMatches(deps: Deps, session: DashboardSession, password: string) {
  const user = await deps.db.kysely
    .selectFrom("users")
    .select("password_hash")
    .where("id", "=", session.userId)
    .executeTakeFirst();
  return user?.password_hash != null && (await verifyPassword(user.password_hash, password));
}

export function registerCloseAccountRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/settings/account", ownerPage, async (request, reply) => {
    const session = sessionOf(request);
    const customers = await customerCount(deps, session.accountId);
    return sendPage(reply, closeAccountView({ session, customers }));
  });

  app.post("/settings/account/close", ownerAction(deps), async (request, reply) => {
    const session = sessionOf(request);
    if (!(await passwordMatches(deps, session, formField(request.body, "password")))) {
      const customers = await customerCount(deps, session.accountId);
      const error = "That is not your password. Nothing was changed.";
      return sendPage(reply, closeAccountView({ session, customers, error }), 400);
    }
    await closeAccount(deps, { accountId: session.accountId, actor: userActor(session.userEmail) });
    clearSessionCookie(request, reply);
    return seeOther(reply, "/login?notice=account-closed");
  });
}
