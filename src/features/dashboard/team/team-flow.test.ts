/**
 * A merchant's team end to end over HTTP, on both engines, with a real SMTP server and the
 * injectable clock: invitations (mailed and shown once, single use, 7 days), removal and
 * demotion ending sessions, the last owner kept, admins kept off owners; every change audited,
 * never with a password or a token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpBrowser, TEST_PASSWORD, uniqueEmail } from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { manualClock } from "../../../../test/support/job-deps.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startSmtpServer, type TestSmtpServer } from "../../../../test/support/smtp-server.js";
import { addMember, invite, tokenOf } from "../../../../test/support/team.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { INVITATION_TTL_MS } from "../../team/invite-member.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`team on ${engine.name}`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    const clock = manualClock(Date.now());

    async function auditRows(accountId: string) {
      return app.deps.db.kysely
        .selectFrom("audit_events")
        .selectAll()
        .where("account_id", "=", accountId)
        .orderBy("occurred_at")
        .orderBy("id")
        .execute();
    }

    async function signedIn(browser: HttpBrowser): Promise<boolean> {
      const res = await browser.get("/settings/profile");
      return res.status === 200;
    }

    async function userId(email: string): Promise<string> {
      const row = await app.deps.db.kysely
        .selectFrom("users")
        .select("id")
        .where("email_normalized", "=", email.toLowerCase())
        .executeTakeFirstOrThrow();
      return row.id;
    }

    beforeAll(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(engine, { env: { SMTP_URL: smtp.url }, clock });
    });
    afterAll(async () => {
      await app?.close();
      await smtp?.close();
    });

    it("invites by e-mail and on the page at once; the link works once and signs the colleague in with their role", async () => {
      const { browser: owner, accountId } = await signInNewAccount(app, { storeName: "Maison" });
      const sent = smtp.messages.length;
      const { email, path, res, html } = await invite(owner, "member");
      expect(res.status).toBe(200);
      expect(html).toContain("It is shown only now");
      const [mail] = (await smtp.waitForMessages(sent + 1)).slice(sent);
      expect(mail?.rcptTo).toEqual([email]);
      expect(mail?.parsed.subject).toBe("You are invited to Maison on Velvet");
      expect(mail?.parsed.text).toContain(tokenOf(path));
      // The stored row holds only the token's hash.
      const stored = await app.deps.db.kysely.selectFrom("user_invitations").selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(tokenOf(path));

      const colleague = new HttpBrowser(app.url);
      const weak = await colleague.submit(path, "/invitations/accept", {
        token: tokenOf(path),
        password: "password12",
      });
      expect(weak.status).toBe(400);
      expect(await weak.text()).toContain("Choose a harder password");
      const ok = await colleague.submit(path, "/invitations/accept", {
        token: tokenOf(path),
        password: TEST_PASSWORD,
      });
      expect(ok.status).toBe(303);
      expect((await colleague.page("/customers")).res.status).toBe(200);
      expect((await colleague.get("/settings/integrations")).status).toBe(403);

      const again = new HttpBrowser(app.url);
      expect((await again.get(path)).status).toBe(410);
      const reuse = await again.post("/invitations/accept", {
        _csrf: "x",
        token: tokenOf(path),
        password: TEST_PASSWORD,
      });
      expect(reuse.status).toBe(403);
      await again.page("/login");
      const replay = await again.submit("/login", "/invitations/accept", {
        token: tokenOf(path),
        password: TEST_PASSWORD,
      });
      expect(replay.status).toBe(410);

      const team = (await owner.page("/settings/team")).html;
      expect(team).toContain(email);
      expect(team).toMatch(/Member<\/td>/);
      const actions = (await auditRows(accountId)).map((e) => e.action);
      expect(actions).toEqual(expect.arrayContaining(["team.invited", "team.joined"]));
      expect(JSON.stringify(await auditRows(accountId))).not.toContain(tokenOf(path));
      expect(JSON.stringify(await auditRows(accountId))).not.toContain(TEST_PASSWORD);
    });

    it("lets an invitation expire after 7 days", async () => {
      const { browser: owner } = await signInNewAccount(app);
      const { path } = await invite(owner, "admin");
      clock.advance(INVITATION_TTL_MS + 1);
      try {
        const colleague = new HttpBrowser(app.url);
        expect((await colleague.get(path)).status).toBe(410);
        await colleague.page("/login");
        const late = await colleague.submit("/login", "/invitations/accept", {
          token: tokenOf(path),
          password: TEST_PASSWORD,
        });
        expect(late.status).toBe(410);
      } finally {
        clock.advance(-(INVITATION_TTL_MS + 1));
      }
    });

    it("ends a removed member's sessions on their next request, and a demoted admin's too", async () => {
      const { browser: owner, accountId } = await signInNewAccount(app);
      const { browser: member, email: memberEmail } = await addMember(app.url, owner, "member");
      const { browser: admin, email: adminEmail } = await addMember(app.url, owner, "admin");
      expect(await signedIn(member)).toBe(true);
      expect((await admin.get("/settings/team")).status).toBe(200);

      const demoted = await owner.submit(
        "/settings/team",
        `/settings/team/${await userId(adminEmail)}/role`,
        {
          role: "member",
        },
      );
      expect(demoted.status).toBe(303);
      expect((await admin.get("/settings/team")).status).toBe(303);
      expect(await signedIn(admin)).toBe(false);

      const removed = await owner.submit(
        "/settings/team",
        `/settings/team/${await userId(memberEmail)}/remove`,
      );
      expect(removed.status).toBe(303);
      expect(await signedIn(member)).toBe(false);
      const login = await member.submit("/login", "/login", {
        email: memberEmail,
        password: TEST_PASSWORD,
      });
      expect(login.status).toBe(401);

      const events = await auditRows(accountId);
      const change = events.find((e) => e.action === "team.role_changed");
      expect(JSON.parse(change?.details ?? "{}")).toMatchObject({
        role: { from: "admin", to: "member" },
        sessionsEnded: 1,
      });
      expect(events.find((e) => e.action === "team.removed")?.actor).toMatch(/@example\.com$/);
    });

    it("keeps one owner always, and keeps admins off owners", async () => {
      const { browser: owner, email: ownerEmail } = await signInNewAccount(app);
      const ownerId = await userId(ownerEmail);
      const { browser: admin } = await addMember(app.url, owner, "admin");

      const lastOwner = await owner.submit("/settings/team", `/settings/team/${ownerId}/role`, {
        role: "admin",
      });
      expect(lastOwner.status).toBe(409);
      expect(await lastOwner.text()).toContain("An account needs at least one owner");
      const byAdmin = await admin.submit("/settings/team", `/settings/team/${ownerId}/remove`);
      expect(byAdmin.status).toBe(403);
      expect(await byAdmin.text()).toContain("Only an owner can change or remove an owner.");
      const ownerInvite = await invite(admin, "owner");
      expect(ownerInvite.res.status).toBe(403);
      expect(ownerInvite.path).toBe("");

      // A second owner may go; the last may not.
      const { email: second } = await addMember(app.url, owner, "owner");
      const gone = await owner.submit(
        "/settings/team",
        `/settings/team/${await userId(second)}/remove`,
      );
      expect(gone.status).toBe(303);
      const users = await app.deps.db.kysely
        .selectFrom("users")
        .select("role")
        .where("id", "=", ownerId)
        .executeTakeFirstOrThrow();
      expect(users.role).toBe("owner");
    });

    it("refuses to invite an address that already signs in to Velvet", async () => {
      const { browser: owner } = await signInNewAccount(app);
      const { email } = await signInNewAccount(app);
      const { res, html } = await invite(owner, "member", email);
      expect(res.status).toBe(409);
      expect(html).toContain("already signs in to Velvet");
      expect(uniqueEmail()).not.toBe(email);
    });
  });
}
