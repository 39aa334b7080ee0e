/**
 * Settings → Integrations → Destinations (admins and owners: the dashboard's default access):
 * list, add a destination of each registered kind (one route per kind, its fields from the
 * kind's declaration; what it reveals, a webhook's secret, shown on the answer, once), send a
 * test, enable one its
 * receiver disabled (410 Gone), remove, and a destination's delivery log with "Send again". Forms
 * carry the CSRF token (actionOptions); adding, enabling and removing are audited by the use
 * cases; another account's ids are a 404.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Deps } from "../../../deps.js";
import { AppError } from "../../../lib/app-error.js";
import { isUuid } from "../../../lib/ids.js";
import { type AuditActor, userActor } from "../../audit/audit-actor.js";
import { addDestination } from "../../destinations/add-destination.js";
import { apiVersionStandings } from "../../destinations/api-version-warnings.js";
import type { DestinationsDeps } from "../../destinations/destination-driver.js";
import { SecretUnreadableError } from "../../destinations/destination-secrets.js";
import { enableDestination } from "../../destinations/disable-destination.js";
import { listDeliveries } from "../../destinations/list-deliveries.js";
import { listDestinations } from "../../destinations/list-destinations.js";
import { removeDestination } from "../../destinations/remove-destination.js";
import { resendDelivery } from "../../destinations/resend-delivery.js";
import { testDestination } from "../../destinations/test-destination.js";
import { listConnections } from "../../store-sync/list-connections.js";
import type { Notice } from "../html/components.js";
import { sendNotFoundPage } from "../html/error-pages.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { actionOptions, pageOptions, sessionOf } from "../session/guards.js";
import { deliveryLogView } from "./delivery-log-view.js";
import {
  DESTINATIONS_PATH,
  type DestinationsProps,
  destinationsView,
} from "./destinations-view.js";

const NOTICES: Record<string, Notice> = {
  added: { kind: "success", text: "Destination added: the next customer events reach it." },
  removed: { kind: "success", text: "Destination removed: nothing more is sent there." },
  enabled: {
    kind: "success",
    text: "Destination enabled: the next events are sent. Those recorded while it was off can be sent again from its log.",
  },
  resent: { kind: "success", text: "The delivery is queued again, with the same webhook-id." },
};

type WithId = { Params: { destinationId: string } };

async function renderList(
  deps: Deps & DestinationsDeps,
  reply: FastifyReply,
  session: DashboardSession,
  extra: Omit<
    DestinationsProps,
    "session" | "destinations" | "stores" | "versionWarnings" | "kinds"
  >,
  status = 200,
) {
  const destinations = await listDestinations(deps.db.kysely, session.accountId);
  const stores = (await listConnections(deps.db.kysely, session.accountId)).map((c) => ({
    connectionId: c.connectionId,
    shop: c.shop,
    platform: c.platform,
  }));
  // An ageing platform version is shown to the accounts that use the platform.
  const uses = new Set<string>(destinations.map((d) => d.kind));
  if (stores.some((s) => s.platform === "shopify")) uses.add("shopify");
  const versionWarnings = apiVersionStandings(deps.config, deps.clock.now())
    .filter((s) => s.warning !== null && uses.has(s.platform.toLowerCase()))
    .map((s) => ({ stage: s.stage, text: s.warning ?? "" }));
  return sendPage(
    reply,
    destinationsView({
      session,
      destinations,
      stores,
      versionWarnings,
      kinds: [...deps.destinations.values()],
      ...extra,
    }),
    status,
  );
}

export function registerDestinationsRoutes(app: FastifyInstance, deps: Deps & DestinationsDeps) {
  app.get<{ Querystring: { notice?: string } }>(DESTINATIONS_PATH, pageOptions, (request, reply) =>
    renderList(deps, reply, sessionOf(request), {
      notice: NOTICES[request.query.notice ?? ""] ?? null,
    }),
  );

  // One add route per registered kind, reading the fields its declaration names.
  for (const kind of deps.destinations.values()) {
    app.post(`${DESTINATIONS_PATH}/${kind.kind}`, actionOptions(deps), async (request, reply) => {
      const session = sessionOf(request);
      const body = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
      const fields = Object.fromEntries(kind.fields.map((f) => [f.name, formField(body, f.name)]));
      const events = kind.form.chooseEvents ? body.getAll("events").join(",") : undefined;
      const refuse = (error: string) => {
        // What was typed goes back into the form, a secret never.
        const values = Object.fromEntries(
          kind.fields.filter((f) => f.type !== "secret").map((f) => [f.name, fields[f.name] ?? ""]),
        );
        return renderList(
          deps,
          reply,
          session,
          { notice: null, refused: { kind: kind.kind, values, error } },
          400,
        );
      };
      if (events === "") return refuse("Choose at least one event.");
      try {
        const added = await addDestination(deps, {
          accountId: session.accountId,
          kind: kind.kind,
          fields,
          events,
          actor: userActor(session.userEmail),
        });
        if (kind.reveals === undefined) return seeOther(reply, `${DESTINATIONS_PATH}?notice=added`);
        // Answered here, not redirected: what is revealed is on this page and on no URL.
        const revealed = added.revealed[kind.reveals.name] ?? "";
        return renderList(deps, reply, session, {
          notice: null,
          added: { kind, destinationId: added.destinationId, revealed },
        });
      } catch (error) {
        if (error instanceof AppError) return refuse(error.message);
        throw error;
      }
    });
  }

  app.get<WithId>(`${DESTINATIONS_PATH}/:destinationId`, pageOptions, async (request, reply) => {
    const session = sessionOf(request);
    const { destinationId } = request.params;
    const destination = isUuid(destinationId)
      ? (await listDestinations(deps.db.kysely, session.accountId)).find(
          (d) => d.destinationId === destinationId,
        )
      : undefined;
    if (destination === undefined) return sendNotFoundPage(reply, session);
    const deliveries = await listDeliveries(deps.db.kysely, session.accountId, destinationId);
    const notice = NOTICES[(request.query as { notice?: string }).notice ?? ""] ?? null;
    return sendPage(reply, deliveryLogView({ session, destination, deliveries, notice }));
  });

  app.post<WithId>(
    `${DESTINATIONS_PATH}/:destinationId/test`,
    actionOptions(deps),
    async (request, reply) => {
      const session = sessionOf(request);
      const { destinationId } = request.params;
      if (!isUuid(destinationId)) return sendNotFoundPage(reply, session);
      const result = await testDestination(deps, {
        accountId: session.accountId,
        destinationId,
      }).catch((error: unknown) => {
        if (!(error instanceof SecretUnreadableError)) throw error;
        return { outcome: "failed" as const, statusCode: null, error: error.message };
      });
      if (result === null) return sendNotFoundPage(reply, session);
      const notice: Notice =
        result.outcome === "delivered"
          ? { kind: "success", text: `Test delivered (${result.statusCode}).` }
          : { kind: "error", text: `Test not delivered: ${result.error}` };
      return renderList(deps, reply, session, { notice });
    },
  );

  /** An action on one destination, then back to the list with its notice. */
  const destinationAction = (
    verb: "enable" | "remove",
    act: (
      deps: Pick<Deps, "db" | "clock">,
      input: { accountId: string; destinationId: string; actor: AuditActor },
    ) => Promise<unknown>,
    notice: "enabled" | "removed",
  ) =>
    app.post<WithId>(
      `${DESTINATIONS_PATH}/:destinationId/${verb}`,
      actionOptions(deps),
      async (request, reply) => {
        const session = sessionOf(request);
        const { destinationId } = request.params;
        if (!isUuid(destinationId)) return sendNotFoundPage(reply, session);
        try {
          await act(deps, {
            accountId: session.accountId,
            destinationId,
            actor: userActor(session.userEmail),
          });
        } catch (error) {
          if (error instanceof AppError && error.code === "not_found")
            return sendNotFoundPage(reply, session);
          throw error;
        }
        return seeOther(reply, `${DESTINATIONS_PATH}?notice=${notice}`);
      },
    );
  destinationAction("enable", enableDestination, "enabled");
  destinationAction("remove", removeDestination, "removed");

  app.post<{ Params: { destinationId: string; deliveryId: string } }>(
    `${DESTINATIONS_PATH}/:destinationId/deliveries/:deliveryId/resend`,
    actionOptions(deps),
    async (request, reply) => {
      const session = sessionOf(request);
      const { destinationId, deliveryId } = request.params;
      if (!isUuid(destinationId) || !isUuid(deliveryId)) return sendNotFoundPage(reply, session);
      try {
        const found = await resendDelivery(deps, { accountId: session.accountId, deliveryId });
        if (!found) return sendNotFoundPage(reply, session);
      } catch (error) {
        if (error instanceof AppError && error.code === "conflict") {
          return seeOther(reply, `${DESTINATIONS_PATH}/${destinationId}`);
        }
        throw error;
      }
      return seeOther(reply, `${DESTINATIONS_PATH}/${destinationId}?notice=resent`);
    },
  );
}
