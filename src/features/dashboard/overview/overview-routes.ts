/** GET /: the Overview (signed out: the login page). */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { configuredProviderNames } from "../../enrichment/providers/create-providers.js";
import { sendPage } from "../http/respond.js";
import { sessionOf } from "../session/guards.js";
import { memberPage } from "../session/role-guard.js";
import { getOverview, PERIODS, type Period } from "./get-overview.js";
import { overviewView } from "./overview-view.js";

export function registerOverviewRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Querystring: { period?: string } }>("/", memberPage, async (request, reply) => {
    const session = sessionOf(request);
    const asked = Number(request.query.period);
    const period: Period = PERIODS.find((p) => p === asked) ?? 30;
    const overview = await getOverview(deps.db.kysely, session.accountId, period, deps.clock.now());
    const providers = configuredProviderNames(deps.config.enrichment);
    return sendPage(reply, overviewView(session, overview, deps.config.publicBaseUrl, providers));
  });
}
