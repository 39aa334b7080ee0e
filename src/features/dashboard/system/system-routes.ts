/** Settings → System: GET the page; POST /settings/system/retry revives one given-up job. */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import type { TaskDefinition } from "../../../jobs/task.js";
import { configuredProviderNames } from "../../enrichment/providers/create-providers.js";
import type { Notice } from "../html/components.js";
import { sendNotFoundPage } from "../html/error-pages.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import { actionOptions, pageOptions, sessionOf } from "../session/guards.js";
import { listGivenUpAlerts, listGivenUpEnrichments } from "./list-given-up.js";
import { retryGivenUp } from "./retry-given-up.js";
import { systemView } from "./system-view.js";

const PATH = "/settings/system";

const NOTICES: Record<string, Notice> = {
  "enrichment-retried": {
    kind: "success",
    text: "The enrichment runs again now; the customer shows its result once it completes.",
  },
  "alert-retried": { kind: "success", text: "The alert is being delivered again now." },
};

export function registerSystemRoutes(
  app: FastifyInstance,
  deps: Deps,
  tasks: ReadonlyArray<TaskDefinition<unknown>>,
): void {
  app.get<{ Querystring: { notice?: string } }>(PATH, pageOptions, async (request, reply) => {
    const session = sessionOf(request);
    const [enrichments, alerts] = await Promise.all([
      listGivenUpEnrichments(deps.db.kysely, session.accountId),
      listGivenUpAlerts(deps.db.kysely, session.accountId),
    ]);
    const shown = NOTICES[request.query.notice ?? ""] ?? null;
    const server = {
      providers: configuredProviderNames(deps.config.enrichment),
      emailEnabled: deps.config.alerts.smtpUrl !== null,
      storeKeySet: deps.config.storeSync.tokenKey !== null,
    };
    return sendPage(reply, systemView({ session, enrichments, alerts, notice: shown, server }));
  });

  app.post(`${PATH}/retry`, actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    const kind = formField(request.body, "kind");
    const id = formField(request.body, "id");
    const result = await retryGivenUp(deps, tasks, session.accountId, kind, id);
    if (result === "not_found") return sendNotFoundPage(reply, session);
    return seeOther(reply, `${PATH}?notice=${kind}-retried`);
  });
}
