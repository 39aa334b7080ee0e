/**
 * Verdicts end to end, on both engines: a VIP's alert is e-mailed through a real SMTP server and
 * posted to a fake chat webhook, each with signed "Right" / "Not a VIP" links; following the
 * e-mail's link (page, then its button) changes the precision Settings → Alerts and
 * `velvet alerts precision` show. Forged, altered and expired links are refused; the dashboard
 * buttons and `velvet customer verdict` record verdicts too; erasure and export reach them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfToken, HttpBrowser } from "../../../test/browser/http-browser.js";
import { type PipelineApp, startPipelineApp } from "../../../test/browser/pipeline-app.js";
import type { FakeChatServer } from "../../../test/fakes/chat-server.js";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { signInNewAccount } from "../../../test/support/sign-in.js";
import type { TestSmtpServer } from "../../../test/support/smtp-server.js";
import { addMember } from "../../../test/support/team.js";
import type { TestApp } from "../../../test/support/test-app.js";
import { scrubLogLine } from "../../lib/log-scrub.js";
import { updateAccount } from "../accounts/update-account.js";
import { buildAlertEmail } from "../alerts/build-alert-email.js";
import { buildChatMessage } from "../alerts/build-chat-message.js";
import { loadAlert } from "../alerts/load-alert.js";
import { cliActor } from "../audit/audit-actor.js";
import { listAuditEvents } from "../audit/list-audit-events.js";
import { monthOf } from "../billing/get-usage.js";
import { eraseCustomer } from "../privacy/erase-customer.js";
import { exportCustomer } from "../privacy/export-customer.js";
import { getPrecision } from "./precision.js";
import { getPrecisionHistory, HISTORY_MONTHS } from "./precision-history.js";
import { recordVerdict } from "./record-verdict.js";
import { VERDICT_LINK_TTL_MS } from "./verdict-links.js";

const LINK =
  /https?:\/\/\S+(\/verdict\?alert=[0-9a-f-]{36}&verdict=(?:right|wrong)&token=[A-Za-z0-9_-]{43})/;

function linkAfter(text: string | undefined, label: string): string {
  const line = (text ?? "").split("\n").find((l) => l.trim().startsWith(`${label}:`));
  const m = LINK.exec(line ?? "");
  if (!m?.[1]) throw new Error(`no ${label} link in: ${text}`);
  return m[1];
}

/** The path and query of a link (the test server is not the configured public address). */
function pathOf(url: string): string {
  const m = LINK.exec(url);
  if (!m?.[1]) throw new Error(`not a verdict link: ${url}`);
  return m[1];
}

/** Opens a link as its reader would: the page, then its one button. */
async function follow(
  app: TestApp,
  link: string,
): Promise<{ page: Response; html: string; posted: Response }> {
  const reader = new HttpBrowser(app.url);
  const opened = await reader.page(link);
  const field = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`).exec(opened.html)?.[1] ?? "";
  const posted = await reader.post("/verdict", {
    _csrf: csrfToken(opened.html),
    alert: field("alert"),
    verdict: field("verdict"),
    token: field("token"),
  });
  return { page: opened.res, html: opened.html, posted };
}

/** Posts a link's fields as they are, with a valid CSRF pair (what a forger could send). */
async function postLink(app: TestApp, link: string): Promise<Response> {
  const reader = new HttpBrowser(app.url);
  const { html } = await reader.page("/login");
  const params = new URL(link, app.url).searchParams;
  return reader.post("/verdict", {
    _csrf: csrfToken(html),
    alert: params.get("alert") ?? "",
    verdict: params.get("verdict") ?? "",
    token: params.get("token") ?? "",
  });
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`merchant verdicts on ${engine.name}`, () => {
    let pipeline: PipelineApp;
    let app: TestApp;
    let chat: FakeChatServer;
    let smtp: TestSmtpServer;
    let owner: HttpBrowser;
    let accountId: string;
    let apiKey: string;
    const velvet = (...args: string[]) =>
      runVelvet(args, { DATABASE_URL: app.database.url, SMTP_URL: "" });

    /** Submits an order and waits until the customer is enriched (a VIP by the fakes' default). */
    async function vip(email: string, key = apiKey): Promise<string> {
      const res = await app.submit(key, {
        email,
        firstName: "Grace",
        lastName: "Hopper",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        order: { id: `o-${email}`, number: `#${email.length}`, total: "1250.00", currency: "USD" },
      });
      const { customerId } = (await res.json()) as { customerId: string };
      await waitFor(
        "enriched",
        async () =>
          (
            await app.deps.db.kysely
              .selectFrom("enrichments")
              .select("vip")
              .where("customer_id", "=", customerId)
              .where("enriched_at", "is not", null)
              .executeTakeFirst()
          )?.vip === 1,
        20_000,
      );
      return customerId;
    }

    beforeAll(async () => {
      pipeline = await startPipelineApp(engine);
      ({ app, chat, smtp } = pipeline);
      ({
        browser: owner,
        accountId,
        apiKey,
      } = await signInNewAccount(app, { storeName: "Verdicts" }));
    });
    afterAll(() => pipeline?.close());

    const target = `vip-team-${engine.name}@example.test`;
    let customerId: string;
    let emailLinks: { right: string; wrong: string };

    it("puts signed links in the alert e-mail and chat message, and a verdict from the e-mail changes the precision", async () => {
      await updateAccount(app.deps.db.kysely, accountId, {
        vipThreshold: 70,
        channels: { slack_webhook_url: chat.webhookUrl, alert_emails: target },
      });
      customerId = await vip(`grace.hopper-${engine.name}@navy-systems.com`);
      await waitFor(
        "alert e-mailed",
        async () => smtp.messages.some((m) => m.rcptTo.includes(target)),
        20_000,
      );
      await waitFor(
        "chat alert posted",
        async () => chat.requests.some((r) => JSON.stringify(r.body).includes(customerId)),
        20_000,
      );

      // The e-mail: both links in the text part, the same in the HTML part.
      const mail = smtp.messages.find((m) => m.rcptTo.includes(target));
      const text = mail?.parsed.text;
      emailLinks = { right: linkAfter(text, "Right"), wrong: linkAfter(text, "Not a VIP") };
      const htmlPart = String(mail?.parsed.html);
      for (const link of Object.values(emailLinks))
        expect(htmlPart).toContain(link.replaceAll("&", "&amp;"));

      // The chat message: two buttons in the actions block and the links in the plain text.
      const body = chat.requests.find((r) => JSON.stringify(r.body).includes(customerId))?.body as {
        text: string;
        blocks: Array<{ type: string; elements?: Array<{ text: { text: string }; url?: string }> }>;
      };
      const buttons = body.blocks.find((b) => b.type === "actions")?.elements ?? [];
      expect(buttons.map((b) => b.text.text)).toEqual(["Open in Velvet", "Right", "Not a VIP"]);
      const chatWrong = pathOf(buttons[2]?.url ?? "");
      expect(body.text).toContain(`|Not a VIP>`);
      expect(body.text).toContain(chatWrong);
      expect(chatWrong).not.toBe(emailLinks.wrong);

      // A retried message is byte for byte the same: the links come from the alert's own secret.
      const emailAlert = await app.deps.db.kysely
        .selectFrom("alerts")
        .select("id")
        .where("customer_id", "=", customerId)
        .where("channel", "=", "email")
        .executeTakeFirstOrThrow();
      const envelope = { from: "velvet@example.test", to: [target], messageId: "<m@velvet>" };
      const again = await loadAlert(
        app.deps.db.kysely,
        emailAlert.id,
        app.deps.config.publicBaseUrl,
        app.deps.config.storeSync.tokenKey,
      );
      const twice = await loadAlert(
        app.deps.db.kysely,
        emailAlert.id,
        app.deps.config.publicBaseUrl,
        app.deps.config.storeSync.tokenKey,
      );
      if (!again || !twice) throw new Error("alert missing");
      expect(buildAlertEmail(again.content, envelope)).toEqual(
        buildAlertEmail(twice.content, envelope),
      );
      expect(buildAlertEmail(again.content, envelope).text).toContain(emailLinks.wrong);
      expect(buildChatMessage(again.content)).toEqual(buildChatMessage(twice.content));

      // Nothing judged yet.
      const before = (await owner.page("/settings/alerts")).html;
      expect(before).toContain(
        "Precision at 70: no VIP above 70 scored in the last 90 days has a verdict yet.",
      );
      expect(before).toContain(
        "Give at least 20 verdicts to get a suggested threshold (0 so far).",
      );
      expect(
        onlyJson(await velvet("alerts", "precision", "--account", accountId, "--json")),
      ).toEqual({
        threshold: 70,
        judged: 0,
        right: 0,
        wrong: 0,
        precision: null,
        interval: null,
        suggestedThreshold: null,
      });

      // The reader opens "Not a VIP": a page with a button records nothing; the button does.
      const followed = await follow(app, emailLinks.wrong);
      expect(followed.page.status).toBe(200);
      expect(followed.html).toContain("Record: Not a VIP");
      // It names who it is about, by first name and initial only: nothing more of theirs.
      expect(followed.html).toContain("Record that Grace H. is not a VIP?");
      expect(followed.html).not.toContain("Hopper");
      expect(followed.html).not.toContain("navy-systems.com");
      expect(followed.posted.status).toBe(200);
      const recorded = await followed.posted.text();
      expect(recorded).toContain("Recorded: Not a VIP (Grace H.)");
      expect(recorded).toContain(`/customers/${customerId}`);

      const after = (await owner.page("/settings/alerts")).html;
      expect(after).toContain("Precision at 70: 0 right of 1 judged (0 %, 95 % interval 0–79 %)");
      const cli = onlyJson(await velvet("alerts", "precision", "--account", accountId, "--json"));
      expect(cli).toMatchObject({
        threshold: 70,
        judged: 1,
        right: 0,
        wrong: 1,
        precision: 0,
        suggestedThreshold: null,
      });
      expect((cli.interval as { low: number; high: number }).high).toBeCloseTo(0.7935, 3);
      const human = await velvet("alerts", "precision", "--account", accountId);
      expect(human.stdout).toContain(
        "Precision at 70: 0 right of 1 judged (0 %, 95 % interval 0–79 %)",
      );

      // The customer page says what was recorded and where; a change of mind from chat wins.
      expect((await owner.page(`/customers/${customerId}`)).html).toContain(
        "from the e-mail alert",
      );
      // The chat's "Not a VIP" token does not work for "Right".
      const crossed = chatWrong.replace("verdict=wrong", "verdict=right");
      expect((await new HttpBrowser(app.url).get(crossed)).status).toBe(400);
      const right = pathOf(buttons[1]?.url ?? "");
      expect((await follow(app, right)).posted.status).toBe(200);
      expect((await owner.page("/settings/alerts")).html).toContain(
        "Precision at 70: 1 right of 1 judged (100 %",
      );

      // Audited by id, with where it came from; no e-mail address in the trail.
      const audit = await listAuditEvents(app.deps.db.kysely, accountId);
      const verdicts = audit.events.filter((e) => e.action === "customer.verdict_given");
      expect(verdicts.map((e) => [e.subject, e.actor])).toEqual([
        [customerId, "link in the chat alert"],
        [customerId, "link in the e-mail alert"],
      ]);
      expect(JSON.stringify(verdicts)).not.toContain("navy-systems");
    });

    it("refuses forged, altered, expired and old links, and keeps tokens out of the log", async () => {
      const altered = emailLinks.wrong.replace(
        /token=(.)/,
        (_, c: string) => `token=${c === "A" ? "B" : "A"}`,
      );
      const swapped = emailLinks.wrong.replace("verdict=wrong", "verdict=right");
      const unknown = emailLinks.wrong.replace(
        /alert=[0-9a-f-]{36}/,
        "alert=0190a000-0000-7000-8000-000000000001",
      );
      for (const link of [
        altered,
        swapped,
        unknown,
        "/verdict",
        "/verdict?alert=x&verdict=wrong&token=y",
      ]) {
        const res = await new HttpBrowser(app.url).get(link);
        expect(res.status, link).toBe(400);
        expect(await res.text()).toContain("This link cannot be used");
        expect((await postLink(app, link)).status, link).toBe(400);
      }
      // A genuine link posted without the pre-session CSRF pair (a forged form) records nothing.
      const noCsrf = await new HttpBrowser(app.url).post("/verdict", {
        alert: new URL(emailLinks.wrong, app.url).searchParams.get("alert") ?? "",
        verdict: "wrong",
        token: new URL(emailLinks.wrong, app.url).searchParams.get("token") ?? "",
      });
      expect(noCsrf.status).toBe(403);
      const before = await app.deps.db.kysely.selectFrom("vip_verdicts").selectAll().execute();

      // 90 days after the alert the links stop working.
      const alertId = new URL(emailLinks.wrong, app.url).searchParams.get("alert") ?? "";
      const row = await app.deps.db.kysely
        .selectFrom("alerts")
        .select("created_at")
        .where("id", "=", alertId)
        .executeTakeFirstOrThrow();
      await app.deps.db.kysely
        .updateTable("alerts")
        .set({ created_at: app.deps.clock.now() - VERDICT_LINK_TTL_MS - 1000 })
        .where("id", "=", alertId)
        .execute();
      expect((await new HttpBrowser(app.url).get(emailLinks.wrong)).status).toBe(400);
      expect((await postLink(app, emailLinks.wrong)).status).toBe(400);
      expect(await app.deps.db.kysely.selectFrom("vip_verdicts").selectAll().execute()).toEqual(
        before,
      );

      // An alert from before verdicts (no secret) has no links, and its message says nothing of them.
      await app.deps.db.kysely
        .updateTable("alerts")
        .set({ created_at: row.created_at, verdict_secret: null })
        .where("id", "=", alertId)
        .execute();
      expect((await new HttpBrowser(app.url).get(emailLinks.wrong)).status).toBe(400);
      const old = await loadAlert(
        app.deps.db.kysely,
        alertId,
        app.deps.config.publicBaseUrl,
        app.deps.config.storeSync.tokenKey,
      );
      if (!old) throw new Error("alert missing");
      expect(old.content.verdictLinks).toBeNull();
      const oldMail = buildAlertEmail(old.content, {
        from: "v@example.test",
        to: [target],
        messageId: "<x@velvet>",
      });
      expect(oldMail.text).not.toContain("Not a VIP");
      expect(oldMail.html).not.toContain("/verdict?");

      // A log line that carried a link keeps no token.
      const token = new URL(emailLinks.right, app.url).searchParams.get("token") ?? "";
      expect(scrubLogLine(`{"msg":"GET ${emailLinks.right}"}`)).not.toContain(token);
    });

    it("lets a team member give verdicts on the customer page and in the alert log, VIPs only", async () => {
      const { browser: member, email: memberEmail } = await addMember(app.url, owner, "member");
      const page = `/customers/${customerId}`;
      const shown = (await member.page(page)).html;
      expect(shown).toContain("Is this customer a VIP?");
      expect(shown).toContain('aria-pressed="true"');
      // Without the session's CSRF token nothing is recorded.
      const forged = await member.post(`${page}/verdict`, { verdict: "wrong", back: page });
      expect(forged.status).toBe(403);
      const unchanged = await app.deps.db.kysely
        .selectFrom("vip_verdicts")
        .select("verdict")
        .where("customer_id", "=", customerId)
        .executeTakeFirstOrThrow();
      expect(unchanged.verdict).toBe("right");
      const saved = await member.submit(page, `${page}/verdict`, { verdict: "wrong", back: page });
      expect(saved.status).toBe(303);
      expect(saved.headers.get("location")).toBe(page);
      const after = (await member.page(page)).html;
      expect(after).toMatch(
        /<span class="badge bad">Not a VIP<\/span> <span class="muted small">by you in the dashboard/,
      );

      // The alert log: who gave it, and the buttons on each VIP's row, back to the same page.
      const log = (await owner.page("/alerts")).html;
      expect(log).toContain(`by ${memberEmail} in the dashboard`);
      expect(log).toContain(`action="/customers/${customerId}/verdict"`);
      const fromLog = await owner.submit("/alerts", `${page}/verdict`, {
        verdict: "right",
        back: "/alerts?status=delivered",
      });
      expect(fromLog.headers.get("location")).toBe("/alerts?status=delivered");
      const stored = await app.deps.db.kysely
        .selectFrom("vip_verdicts")
        .selectAll()
        .where("customer_id", "=", customerId)
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ verdict: "right", source: "dashboard" });
      // Somewhere else than this site is not followed.
      const elsewhere = await owner.submit("/alerts", `${page}/verdict`, {
        verdict: "right",
        back: "//evil.example",
      });
      expect(elsewhere.headers.get("location")).toBe(page);

      // Not a VIP (any more): no buttons, and a verdict is refused with the reason.
      await app.deps.db.kysely
        .updateTable("enrichments")
        .set({ vip: 0 })
        .where("customer_id", "=", customerId)
        .execute();
      expect((await member.page(page)).html).not.toContain("Is this customer a VIP?");
      const refused = await member.submit(page, `${page}/verdict`, {
        verdict: "right",
        back: page,
      });
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("Verdicts are for VIPs only");
      await app.deps.db.kysely
        .updateTable("enrichments")
        .set({ vip: 1 })
        .where("customer_id", "=", customerId)
        .execute();

      // Another account's customer looks like an unknown one.
      const other = await signInNewAccount(app, { storeName: "Other" });
      const foreign = await other.browser.submit("/customers", `${page}/verdict`, {
        verdict: "right",
        back: page,
      });
      expect(foreign.status).toBe(404);
    });

    it("records verdicts from the command line", async () => {
      const email = `grace.hopper-${engine.name}@navy-systems.com`;
      const done = onlyJson(
        await velvet(
          "customer",
          "verdict",
          "--account",
          accountId,
          "--email",
          email.toUpperCase(),
          "--vip",
          "no",
          "--json",
        ),
      );
      expect(done).toMatchObject({ customerId, verdict: "wrong" });
      const stored = await app.deps.db.kysely
        .selectFrom("vip_verdicts")
        .selectAll()
        .where("customer_id", "=", customerId)
        .executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ verdict: "wrong", source: "cli", given_by: null });
      const human = await velvet(
        "customer",
        "verdict",
        "--account",
        accountId,
        "--email",
        email,
        "--vip",
        "yes",
      );
      expect(human.stdout).toContain(": Right.");
      // `customer show` tells which verdict holds, and where it came from.
      const shown = onlyJson(
        await velvet("customer", "show", "--account", accountId, "--email", email, "--json"),
      );
      expect(shown.verdict).toMatchObject({ verdict: "right", source: "cli", givenBy: null });
      const shownText = await velvet("customer", "show", "--account", accountId, "--email", email);
      expect(shownText.stdout).toContain("Verdict: Right (cli,");
      // `alerts list` names it beside each of the customer's alerts.
      const listed = onlyJson(await velvet("alerts", "list", "--account", accountId, "--json"));
      const theirs = (
        listed.alerts as Array<{ customerId: string; verdict: string | null }>
      ).filter((a) => a.customerId === customerId);
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.every((a) => a.verdict === "right")).toBe(true);
      const listedText = await velvet("alerts", "list", "--account", accountId);
      expect(listedText.stdout).toContain("verdict: Right");
      const bad = await velvet(
        "customer",
        "verdict",
        "--account",
        accountId,
        "--email",
        email,
        "--vip",
        "maybe",
      );
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain('say "yes"');
      const nobody = await velvet(
        "customer",
        "verdict",
        "--account",
        accountId,
        "--email",
        "nobody@example.test",
        "--vip",
        "yes",
        "--json",
      );
      expect(nobody.code).not.toBe(0);
      expect(nobody.stdout).toBe("");
    });

    it("computes precision over the last 90 days' real customers and suggests a threshold from 20 verdicts", async () => {
      const shop = await app.createAccount({ name: "Many", vipThreshold: 70 });
      const ids: string[] = [];
      for (let i = 0; i < 22; i++)
        ids.push(await vip(`buyer.n${i}-${engine.name}@example.org`, shop.apiKey));
      const db = app.deps.db.kysely;
      const now = app.deps.clock.now();
      // 10 wrong at 72, 10 right at 80, one more right at 80 scored 100 days ago, one sample.
      for (const [i, id] of ids.entries()) {
        const score = i < 10 ? 72 : 80;
        await db
          .updateTable("enrichments")
          .set({ score, enriched_at: i === 20 ? now - 100 * 86_400_000 : now })
          .where("customer_id", "=", id)
          .execute();
        if (i === 21)
          await db.updateTable("customers").set({ sample: 1 }).where("id", "=", id).execute();
        const outcome = await recordVerdict(
          db,
          {
            accountId: shop.accountId,
            customerId: id,
            verdict: i < 10 ? "wrong" : "right",
            source: "cli",
            givenBy: null,
            actor: cliActor("test"),
          },
          now,
        );
        expect(outcome.kind).toBe("recorded");
      }
      const p = await getPrecision(db, shop.accountId, now);
      expect(p).toMatchObject({
        threshold: 70,
        judged: 20,
        right: 10,
        wrong: 10,
        precision: 0.5,
        verdictsInWindow: 20,
        suggestedThreshold: 72,
      });
      expect(p?.interval?.low).toBeCloseTo(0.2993, 3);
      // One verdict fewer in the window: no suggestion.
      await db
        .deleteFrom("vip_verdicts")
        .where("customer_id", "=", ids[0] ?? "")
        .execute();
      expect((await getPrecision(db, shop.accountId, now))?.suggestedThreshold).toBeNull();
      // Month by month: by the month each VIP was scored, sample customers left out.
      const history = await getPrecisionHistory(db, shop.accountId, 70, now);
      expect(history.map((m) => m.month)).toHaveLength(HISTORY_MONTHS);
      expect(history.at(-1)).toMatchObject({ month: monthOf(now), judged: 19, right: 10 });
      expect(history.find((m) => m.month === monthOf(now - 100 * 86_400_000))).toMatchObject({
        judged: 1,
        right: 1,
        precision: 1,
      });
      expect(history.reduce((s, m) => s + m.judged, 0)).toBe(20);
      // At another threshold, only the VIPs above it.
      expect((await getPrecisionHistory(db, shop.accountId, 75, now)).at(-1)).toMatchObject({
        judged: 10,
        right: 10,
      });
    });

    it("exports the verdict with the person and erases it with them", async () => {
      const lookup = { customerId };
      const exported = await exportCustomer(app.deps, {
        accountId,
        lookup,
        actor: cliActor("test"),
      });
      expect(exported?.verdicts).toEqual([
        { verdict: "right", source: "cli", givenAt: expect.stringMatching(/^\d{4}-/) },
      ]);
      const erased = await eraseCustomer(app.deps, { accountId, lookup, actor: cliActor("test") });
      expect(erased?.erased).toMatchObject({ verdicts: 1 });
      expect(
        await app.deps.db.kysely
          .selectFrom("vip_verdicts")
          .selectAll()
          .where("customer_id", "=", customerId)
          .execute(),
      ).toEqual([]);
      // The links of the erased alerts go with them.
      expect((await new HttpBrowser(app.url).get(emailLinks.right)).status).toBe(400);
    });
  });
}
