/**
 * Settings → Integrations → Stores: list the account's store connections; connect Shopify or
 * WooCommerce (credentials verified by the platform before they are saved), or first preview
 * what the backfill would cost (the same form's "Preview cost": the connection's dry run, nothing
 * saved, the estimate under the form); pause, resume, disconnect. A refused or previewed form
 * comes back with its identifiers and without its secrets (connect-form.ts). Forms carry the
 * CSRF token (actionOptions); every change is audited by the use case.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Deps } from "../../../deps.js";
import { AppError } from "../../../lib/app-error.js";
import { isUuid } from "../../../lib/ids.js";
import { withoutSecrets } from "../../../lib/without-secrets.js";
import { userActor } from "../../audit/audit-actor.js";
import type { Credentials } from "../../store-sync/credentials.js";
import { estimateBackfill } from "../../store-sync/estimate-backfill.js";
import { listConnections } from "../../store-sync/list-connections.js";
import { type ConnectionChange, changeConnection } from "../../store-sync/manage-connection.js";
import { platformHttpFor } from "../../store-sync/platform-http.js";
import { connectLiveStore, disconnectLiveStore } from "../../store-webhooks/live-connection.js";
import type { Notice } from "../html/components.js";
import { sendNotFoundPage } from "../html/error-pages.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { actionOptions, pageOptions, sessionOf } from "../session/guards.js";
import { type ConnectForm, readConnectForm } from "./connect-form.js";
import { STORES_PATH, type StoresProps, storesView } from "./stores-view.js";

const NOTICES: Record<string, Notice> = {
  connected: {
    kind: "success",
    text: "Store connected: new orders arrive as they are placed, and its past orders within minutes.",
  },
  "connected-polling": {
    kind: "info",
    text: "Store connected, without webhooks (the store's row says why): Velvet reads its orders by polling.",
  },
  "connected-recent": {
    kind: "info",
    text: "Store connected. Shopify gives this app only the last 60 days of orders, so Velvet reads those: add the read_all_orders scope to the app in the Dev Dashboard, install the new version and connect again to read older ones.",
  },
  reconnected: {
    kind: "success",
    text: "New credentials saved: the sync carries on where it was.",
  },
  paused: { kind: "info", text: "Sync paused. Resume it to read the orders placed meanwhile." },
  resumed: { kind: "success", text: "Sync resumed: it runs now." },
  disconnected: { kind: "success", text: "Store disconnected. The orders already synced stay." },
  "disconnected-left": {
    kind: "info",
    text: "Store disconnected; the orders already synced stay. Velvet could not remove its webhooks from the store: delete them in the store's admin (Shopify: the app's webhooks go when the app is uninstalled; WooCommerce: Settings › Advanced › Webhooks). Until then the store's deliveries are refused and it stops sending them.",
  },
};

async function render(
  deps: Deps,
  reply: FastifyReply,
  session: DashboardSession,
  extra: Pick<StoresProps, "notice" | "refused" | "preview">,
  status = 200,
) {
  const connections = await listConnections(deps.db.kysely, session.accountId);
  return sendPage(
    reply,
    storesView({
      session,
      connections,
      intervals: deps.config.storeSync,
      canConnect: deps.config.storeSync.tokenKey !== null,
      ...extra,
    }),
    status,
  );
}

function backfillDays(text: string): number | null {
  const t = text.trim();
  if (t === "") return 90;
  return /^\d{1,4}$/.test(t) ? Number(t) : null;
}

export function registerStoresRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Querystring: { notice?: string } }>(STORES_PATH, pageOptions, async (request, reply) =>
    render(deps, reply, sessionOf(request), {
      notice: NOTICES[request.query.notice ?? ""] ?? null,
    }),
  );

  const connectRoute = (form: ConnectForm) =>
    app.post(`${STORES_PATH}/${form}`, actionOptions(deps), async (request, reply) => {
      const session = sessionOf(request);
      const body = request.body;
      const sent = readConnectForm(form, body);
      const { kept, field, retype } = sent;
      const refuse = (error: string) =>
        render(
          deps,
          reply,
          session,
          {
            notice: null,
            refused: { form, kept, retype, error: withoutSecrets(error, sent.secrets) },
          },
          400,
        );
      let credentials: Credentials;
      if (form === "shopify") {
        const app = field("client_id") !== "" || field("client_secret") !== "";
        const token = field("token");
        if (kept.shop?.trim() === "") return refuse("Fill in the shop domain.");
        if (app === (token !== "") || (app && (!field("client_id") || !field("client_secret"))))
          return refuse(
            "Fill in the app's client id and client secret, or (for an app made in the Shopify admin) its Admin API token.",
          );
        credentials = app
          ? {
              platform: "shopify",
              clientId: field("client_id"),
              clientSecret: field("client_secret"),
            }
          : {
              platform: "shopify",
              token,
              ...(field("webhook_secret") === "" ? {} : { webhookSecret: field("webhook_secret") }),
            };
      } else {
        credentials = { platform: "woocommerce", key: field("key"), secret: field("secret") };
        if ([kept.url, kept.key, field("secret")].some((v) => (v ?? "").trim() === ""))
          return refuse("Fill in every field.");
      }
      const backfill = backfillDays(kept.backfillDays ?? "");
      if (backfill === null || backfill > 3650)
        return refuse("Past orders: a whole number of days from 0 to 3650.");
      const http = platformHttpFor(deps.config);
      const input = {
        accountId: session.accountId,
        shop: (form === "shopify" ? kept.shop : kept.url) ?? "",
        credentials,
        backfillDays: backfill,
      };
      try {
        if (formField(body, "preview") !== "") {
          const estimate = await estimateBackfill(deps, http, input);
          return render(deps, reply, session, {
            notice: null,
            preview: { form, kept, retype, estimate },
          });
        }
        const connected = await connectLiveStore(deps, http, {
          ...input,
          actor: userActor(session.userEmail),
        });
        const notice = connected.reconnected
          ? "reconnected"
          : connected.backfillCut
            ? "connected-recent"
            : connected.webhooks.webhooks === "active"
              ? "connected"
              : "connected-polling";
        return seeOther(reply, `${STORES_PATH}?notice=${notice}`);
      } catch (error) {
        if (error instanceof AppError) return refuse(error.message);
        throw error;
      } finally {
        await http.close();
      }
    });
  connectRoute("shopify");
  connectRoute("woocommerce");

  const changeRoute = (change: ConnectionChange, done: string) =>
    app.post<{ Params: { id: string } }>(
      `${STORES_PATH}/:id/${change}`,
      actionOptions(deps),
      async (request, reply) => {
        const session = sessionOf(request);
        const { id } = request.params;
        if (!isUuid(id)) return sendNotFoundPage(reply, session);
        let notice = done;
        try {
          if (change === "disconnect") {
            const http = platformHttpFor(deps.config);
            try {
              const result = await disconnectLiveStore(
                deps,
                http,
                id,
                session.accountId,
                userActor(session.userEmail),
              );
              if (result.webhooksLeft !== null) notice = "disconnected-left";
            } finally {
              await http.close();
            }
          } else {
            await changeConnection(
              deps,
              change,
              id,
              session.accountId,
              userActor(session.userEmail),
            );
          }
        } catch (error) {
          if (error instanceof AppError && error.code === "not_found")
            return sendNotFoundPage(reply, session);
          throw error;
        }
        return seeOther(reply, `${STORES_PATH}?notice=${notice}`);
      },
    );
  changeRoute("pause", "paused");
  changeRoute("resume", "resumed");
  changeRoute("disconnect", "disconnected");
}
