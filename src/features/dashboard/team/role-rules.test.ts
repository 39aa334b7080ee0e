/**
 * Role rules over every dashboard route. The routes come from Fastify itself (an onRoute hook
 * on the same registerDashboard the server uses), so a route added tomorrow is checked too:
 * - each route's declared access must match the explicit lists below (a route opened to
 *   members or visitors without being listed here fails);
 * - a member gets the 403 page on every route not on the members' list, with a valid CSRF
 *   token (so it is the role that refuses), and nothing in the database changes;
 * - an admin gets 403 on every owner-only route.
 */
import Fastify, { type RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfToken, type HttpBrowser } from "../../../../test/browser/http-browser.js";
import { type FakeShopify, startFakeShopify } from "../../../../test/fakes/shopify-admin.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { connect, STORE_SYNC_ENV } from "../../../../test/support/store-sync.js";
import { addMember } from "../../../../test/support/team.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { systemActor } from "../../audit/audit-actor.js";
import { addDestination } from "../../destinations/add-destination.js";
import { registerDashboard } from "../dashboard-plugin.js";
import { DEFAULT_ACCESS, FORBIDDEN_MESSAGE, type RouteAccess } from "../session/role-guard.js";

/** Everything a member may do. Anything else must refuse them. */
const MEMBER_ROUTES = [
  "GET /",
  "GET /customers",
  "GET /customers/:customerId",
  "POST /customers/:customerId/verdict",
  "POST /notices/fold",
  "POST /notices/unfold",
  "GET /alerts",
  "GET /settings/billing",
  "GET /settings/profile",
  "POST /settings/profile/password",
  "POST /settings/profile/sessions/end",
  "POST /settings/profile/sessions/end-others",
  "POST /logout",
];

/** Pages for visitors (no session needed): log-in, sign-up and links from e-mails. */
const VISITOR_ROUTES = [
  "GET /login",
  "POST /login",
  "GET /signup",
  "POST /signup",
  "GET /signup/confirm",
  "POST /signup/confirm",
  "GET /alert-emails/confirm",
  "POST /alert-emails/confirm",
  "GET /verdict",
  "POST /verdict",
  "GET /password/forgot",
  "POST /password/forgot",
  "GET /password/reset",
  "POST /password/reset",
  "GET /invitations/accept",
  "POST /invitations/accept",
];

/** Only owners: closing the account, and Settings → Billing's form (the budget spends money). */
const OWNER_ROUTES = [
  "GET /settings/account",
  "POST /settings/account/close",
  "POST /settings/billing",
];

interface Route {
  key: string;
  method: string;
  url: string;
  access: RouteAccess | "asset";
}

async function dashboardRoutes(app: TestApp): Promise<Route[]> {
  const seen: RouteOptions[] = [];
  const probe = Fastify({ exposeHeadRoutes: false });
  probe.addHook("onRoute", (r: RouteOptions) => {
    seen.push(r);
  });
  registerDashboard(probe, app.deps);
  await probe.ready();
  await probe.close();
  // Read once every onRoute hook ran (a context's own hook may set a route's default access).
  return seen.flatMap((r) =>
    (Array.isArray(r.method) ? r.method : [r.method]).map((method) => ({
      key: `${method} ${r.url}`,
      method,
      url: r.url,
      access: r.url.startsWith("/assets/")
        ? ("asset" as const)
        : ((r.config as { access?: RouteAccess } | undefined)?.access ?? DEFAULT_ACCESS),
    })),
  );
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `role rules on every dashboard route on ${engine.name}`,
    () => {
      let app: TestApp;
      let shopify: FakeShopify;
      let routes: Route[];
      let owner: HttpBrowser;
      let admin: HttpBrowser;
      let member: HttpBrowser;
      const params: Record<string, string> = {};

      async function snapshot() {
        const db = app.deps.db.kysely;
        return JSON.stringify({
          accounts: await db.selectFrom("accounts").selectAll().orderBy("id").execute(),
          users: await db
            .selectFrom("users")
            .select(["id", "role", "password_hash"])
            .orderBy("id")
            .execute(),
          keys: await db
            .selectFrom("api_keys")
            .select(["id", "revoked_at"])
            .orderBy("id")
            .execute(),
          customers: await db.selectFrom("customers").select("id").orderBy("id").execute(),
          destinations: await db.selectFrom("destinations").select("id").orderBy("id").execute(),
          stores: await db
            .selectFrom("store_connections")
            .select(["id", "state", "credentials"])
            .orderBy("id")
            .execute(),
          sessions: await db.selectFrom("sessions").select("id_hash").orderBy("id_hash").execute(),
          invitations: await db
            .selectFrom("user_invitations")
            .select("token_hash")
            .orderBy("token_hash")
            .execute(),
        });
      }

      function fill(url: string): string {
        return url.replace(/:(\w+)/g, (_, name: string) => {
          const value = params[name];
          if (value === undefined) throw new Error(`no test value for :${name} in ${url}: add one`);
          return value;
        });
      }

      async function call(
        browser: HttpBrowser,
        route: Route,
        accept = "text/html",
      ): Promise<Response> {
        const path = fill(route.url);
        if (route.method === "GET") return browser.get(path, { accept });
        const token = csrfToken((await browser.page("/settings/profile")).html);
        return browser.post(path, { _csrf: token }, { accept });
      }

      beforeAll(async () => {
        [app, shopify] = await Promise.all([
          startTestApp(engine, { env: STORE_SYNC_ENV }),
          startFakeShopify(),
        ]);
        routes = await dashboardRoutes(app);
        let apiKey: string;
        let accountId: string;
        ({ browser: owner, apiKey, accountId } = await signInNewAccount(app));
        ({ browser: admin } = await addMember(app.url, owner, "admin"));
        ({ browser: member } = await addMember(app.url, owner, "member"));
        const submitted = await app.submit(apiKey, {
          email: "ada@example.com",
          firstName: "Ada",
          lastName: "Lovelace",
        });
        params.customerId = ((await submitted.json()) as { customerId: string }).customerId;
        const key = await app.deps.db.kysely
          .selectFrom("api_keys")
          .select("id")
          .executeTakeFirstOrThrow();
        params.keyId = key.id;
        const ownerRow = await app.deps.db.kysely
          .selectFrom("users")
          .select("id")
          .where("account_id", "=", accountId)
          .where("role", "=", "owner")
          .executeTakeFirstOrThrow();
        params.userId = ownerRow.id;
        // A destination, so its log opens for an admin and its actions have a row to leave alone.
        const destination = await addDestination(app.deps, {
          accountId,
          kind: "webhook",
          fields: { url: "https://hooks.example.com/velvet" },
          actor: systemActor("test"),
        });
        params.destinationId = destination.destinationId;
        params.deliveryId = destination.destinationId;
        // A connected shop, so pause/resume/disconnect have a real row to leave alone.
        params.id = await connect(app.deps, {
          accountId,
          shop: shopify.shop,
          credentials: { platform: "shopify", token: shopify.token },
          backfillDays: 0,
        });
      });
      afterAll(async () => {
        await app?.close();
        await shopify?.close();
      });

      it("finds the dashboard's routes, and every one declares what the lists say", () => {
        expect(routes.length).toBeGreaterThan(30);
        for (const r of routes) {
          if (r.access === "asset") continue;
          const expected = MEMBER_ROUTES.includes(r.key)
            ? "member"
            : VISITOR_ROUTES.includes(r.key)
              ? "public"
              : OWNER_ROUTES.includes(r.key)
                ? "owner"
                : "admin";
          expect(r.access, r.key).toBe(expected);
        }
        // The lists name real routes (a renamed route must be renamed here too).
        const keys = new Set(routes.map((r) => r.key));
        for (const key of [...MEMBER_ROUTES, ...VISITOR_ROUTES, ...OWNER_ROUTES])
          expect(keys.has(key), key).toBe(true);
      });

      it("refuses a member on every route not on the members' list, and changes nothing", async () => {
        const forbidden = routes.filter(
          (r) =>
            r.access !== "asset" &&
            !MEMBER_ROUTES.includes(r.key) &&
            !VISITOR_ROUTES.includes(r.key),
        );
        expect(forbidden.length).toBeGreaterThan(15);
        const before = await snapshot();
        for (const route of forbidden) {
          const res = await call(member, route);
          expect(res.status, route.key).toBe(403);
          expect(await res.text(), route.key).toContain("You do not have access to this");
        }
        expect(await snapshot()).toBe(before);
      });

      it("answers a JSON client with a JSON 403", async () => {
        const route = routes.find((r) => r.key === "POST /settings/integrations/keys");
        if (!route) throw new Error("route missing");
        const res = await call(member, route, "application/json");
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual({ error: "Forbidden", message: FORBIDDEN_MESSAGE });
      });

      it("lets a member open each page on their list", async () => {
        for (const route of routes.filter(
          (r) => r.method === "GET" && MEMBER_ROUTES.includes(r.key),
        )) {
          const res = await call(member, route);
          expect(res.status, route.key).toBe(200);
        }
        // Visitor pages never answer a signed-in member with the role's 403.
        for (const route of routes.filter((r) => r.method === "GET" && r.access === "public")) {
          const res = await call(member, route);
          expect(res.status, route.key).not.toBe(403);
        }
      });

      it("refuses an admin on the owner-only routes, and lets them open the admin pages", async () => {
        const before = await snapshot();
        for (const route of routes.filter((r) => r.access === "owner")) {
          const res = await call(admin, route);
          expect(res.status, route.key).toBe(403);
        }
        expect(await snapshot()).toBe(before);
        for (const route of routes.filter((r) => r.method === "GET" && r.access === "admin")) {
          const res = await call(admin, route);
          expect(res.status, route.key).toBeLessThan(400);
        }
      });

      it("hides what a member may not use from the navigation", async () => {
        const { html } = await member.page("/settings/billing");
        expect(html).not.toContain('href="/settings/integrations"');
        expect(html).not.toContain('href="/settings/team"');
        expect(html).not.toContain('href="/settings/account"');
        expect(html).toContain('href="/settings/profile"');
        const customer = (await member.page(`/customers/${params.customerId}`)).html;
        expect(customer).toContain("Ada");
        expect(customer).not.toContain("/export");
        expect(customer).not.toContain("/delete");
        const adminPage = (await admin.page("/settings/team")).html;
        expect(adminPage).toContain('href="/settings/integrations"');
        expect(adminPage).not.toContain('href="/settings/account"');
      });
    },
  );
}
