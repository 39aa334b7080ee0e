/**
 * GET /: the Overview (signed out: the login page). POST /sample-data adds the generated sample
 * store history (features/demo) and POST /sample-data/remove removes it: admins and owners.
 */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { userActor } from "../../audit/audit-actor.js";
import { addSampleData, countSampleCustomers, removeSampleData } from "../../demo/sample-data.js";
import { configuredProviderNames } from "../../enrichment/providers/create-providers.js";
import type { PrivacyDeps } from "../../privacy/privacy-registry.js";
import type { Notice } from "../html/components.js";
import { seeOther, sendPage } from "../http/respond.js";
import { foldedNotices } from "../notices/folded-notices.js";
import { noProvidersOnPage } from "../notices/operator-notice.js";
import { actionOptions, sessionOf } from "../session/guards.js";
import { memberPage } from "../session/role-guard.js";
import { getOverview, PERIODS, type Period } from "./get-overview.js";
import { overviewView } from "./overview-view.js";

const NOTICES: Record<string, Notice> = {
  "sample-added": {
    kind: "success",
    text: "Sample orders added. Their customers are enriched and scored within a minute: reload to see them.",
  },
  "sample-removed": { kind: "success", text: "The sample data is removed." },
};

export function registerOverviewRoutes(app: FastifyInstance, deps: Deps & PrivacyDeps): void {
  app.get<{ Querystring: { period?: string; notice?: string } }>(
    "/",
    memberPage,
    async (request, reply) => {
      const session = sessionOf(request);
      const asked = Number(request.query.period);
      const period: Period = PERIODS.find((p) => p === asked) ?? 30;
      const [overview, sampleCustomers] = await Promise.all([
        getOverview(deps.db.kysely, session.accountId, period, deps.clock.now()),
        countSampleCustomers(deps, session.accountId),
      ]);
      const serverNotices = noProvidersOnPage(
        session,
        configuredProviderNames(deps.config.enrichment),
        foldedNotices(request),
        request.url,
      );
      return sendPage(
        reply,
        overviewView(session, overview, deps.config.publicBaseUrl, serverNotices, {
          sampleCustomers,
          notice: NOTICES[request.query.notice ?? ""] ?? null,
        }),
      );
    },
  );

  app.post("/sample-data", actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    await addSampleData(deps, {
      accountId: session.accountId,
      actor: userActor(session.userEmail),
    });
    return seeOther(reply, "/?notice=sample-added");
  });

  app.post("/sample-data/remove", actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    await removeSampleData(deps, {
      accountId: session.accountId,
      actor: userActor(session.userEmail),
    });
    return seeOther(reply, "/?notice=sample-removed");
  });
}
