/**
 * Replays of the second review's invitation findings, on both engines, over HTTP: an invitation
 * outlived its inviter (removed or demoted), could not be cancelled, and an admin could replace
 * an owner's owner invitation; team changes were judged on the role read with the session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpBrowser, TEST_PASSWORD, uniqueEmail } from "../../../../test/browser/http-browser.js";
import { auditDetails } from "../../../../test/support/audit-details.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { addMember, invite, tokenOf } from "../../../../test/support/team.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { AppError } from "../../../lib/app-error.js";
import { userActor } from "../../audit/audit-actor.js";
import { inviteMember } from "../../team/invite-member.js";
import { removeMember } from "../../team/manage-member.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`invitation rights on ${engine.name}`, () => {
    let app: TestApp;

    beforeAll(async () => {
      app = await startTestApp(engine);
    });
    afterAll(async () => {
      await app?.close();
    });

    async function userId(email: string): Promise<string> {
      const row = await app.deps.db.kysely
        .selectFrom("users")
        .select("id")
        .where("email_normalized", "=", email.toLowerCase())
        .executeTakeFirstOrThrow();
      return row.id;
    }

    async function accept(path: string) {
      const rogue = new HttpBrowser(app.url);
      const opened = await rogue.get(path);
      const posted = await rogue.submit("/login", "/invitations/accept", {
        token: tokenOf(path),
        password: TEST_PASSWORD,
      });
      return { opened: opened.status, posted: posted.status };
    }

    async function pending(accountId: string): Promise<string[]> {
      const rows = await app.deps.db.kysely
        .selectFrom("user_invitations")
        .select("email")
        .where("account_id", "=", accountId)
        .where("used_at", "is", null)
        .execute();
      return rows.map((r) => r.email);
    }

    it("ends an admin's invitations when the admin is removed: the link no longer joins", async () => {
      const { browser: owner, accountId } = await signInNewAccount(app);
      const { browser: admin, email: adminEmail } = await addMember(app.url, owner, "admin");
      const rogue = await invite(admin, "admin", uniqueEmail("rogue"));
      expect(rogue.res.status).toBe(200);
      const removed = await owner.submit(
        "/settings/team",
        `/settings/team/${await userId(adminEmail)}/remove`,
      );
      expect(removed.status).toBe(303);
      expect(await pending(accountId)).not.toContain(rogue.email);
      expect(await accept(rogue.path)).toEqual({ opened: 410, posted: 410 });
      const [audited] = await auditDetails(app.deps.db.kysely, accountId, "team.removed");
      expect(audited).toMatchObject({ invitationsEnded: 1 });
    });

    it("ends the invitations a demoted admin can no longer grant", async () => {
      const { browser: owner, accountId } = await signInNewAccount(app);
      const { browser: admin, email: adminEmail } = await addMember(app.url, owner, "admin");
      const rogue = await invite(admin, "admin", uniqueEmail("rogue"));
      const demoted = await owner.submit(
        "/settings/team",
        `/settings/team/${await userId(adminEmail)}/role`,
        { role: "member" },
      );
      expect(demoted.status).toBe(303);
      expect(await pending(accountId)).not.toContain(rogue.email);
      expect(await accept(rogue.path)).toEqual({ opened: 410, posted: 410 });
    });

    it("refuses at acceptance a link whose inviter lost the right by any path", async () => {
      const { browser: owner } = await signInNewAccount(app);
      const { browser: admin, email: adminEmail } = await addMember(app.url, owner, "admin");
      const rogue = await invite(admin, "admin", uniqueEmail("rogue"));
      // As if the role had changed without the team's use case (an older row, a manual fix).
      await app.deps.db.kysely
        .updateTable("users")
        .set({ role: "member" })
        .where("id", "=", await userId(adminEmail))
        .execute();
      expect((await accept(rogue.path)).posted).toBe(410);
    });

    it("cancels an invitation from the Team page (CSRF-checked): the link stops working", async () => {
      const { browser: owner, accountId } = await signInNewAccount(app);
      const invited = await invite(owner, "member");
      expect(invited.html).toContain('action="/settings/team/invitations/cancel"');
      const forged = await owner.post("/settings/team/invitations/cancel", {
        _csrf: "forged",
        email: invited.email,
      });
      expect(forged.status).toBe(403);
      expect(await pending(accountId)).toContain(invited.email);
      const cancelled = await owner.submit("/settings/team", "/settings/team/invitations/cancel", {
        email: invited.email,
      });
      expect(cancelled.status).toBe(303);
      expect(await pending(accountId)).not.toContain(invited.email);
      expect(await accept(invited.path)).toEqual({ opened: 410, posted: 410 });
      const again = await owner.submit("/settings/team", "/settings/team/invitations/cancel", {
        email: invited.email,
      });
      expect(again.status).toBe(404);
    });

    it("lets only someone who may grant the role replace or cancel an owner invitation", async () => {
      const { browser: owner, accountId } = await signInNewAccount(app);
      const { browser: admin } = await addMember(app.url, owner, "admin");
      const future = await invite(owner, "owner");
      expect(future.res.status).toBe(200);
      const replaced = await invite(admin, "member", future.email);
      expect(replaced.res.status).toBe(403);
      expect(replaced.path).toBe("");
      const cancelled = await admin.submit("/settings/team", "/settings/team/invitations/cancel", {
        email: future.email,
      });
      expect(cancelled.status).toBe(403);
      const row = await app.deps.db.kysely
        .selectFrom("user_invitations")
        .select("role")
        .where("account_id", "=", accountId)
        .where("email", "=", future.email)
        .executeTakeFirstOrThrow();
      expect(row.role).toBe("owner");
      // The admin's page offers no cancel button for it; an admin's own invitation it does.
      const { html } = await admin.page("/settings/team");
      expect(html).not.toContain(`Cancel the invitation of ${future.email}`);
      expect((await accept(future.path)).posted).toBe(303);
    });

    it("judges a team change on the actor's role inside the lock, not the one read with the session", async () => {
      const { browser: owner, accountId } = await signInNewAccount(app);
      const { email: adminEmail } = await addMember(app.url, owner, "admin");
      // A session loaded while the user was owner; by the time the change runs they are admin.
      const stale = {
        audit: userActor(adminEmail),
        authority: "owner" as const,
        userId: await userId(adminEmail),
      };
      const attempt = inviteMember(app.deps, {
        accountId,
        accountName: "Test Store",
        email: uniqueEmail("rogue"),
        role: "owner",
        actor: stale,
      });
      await expect(attempt).rejects.toBeInstanceOf(AppError);
      await expect(attempt).rejects.toMatchObject({ code: "forbidden" });
      // Removed meanwhile: nothing at all.
      await removeMember(app.deps, {
        accountId,
        member: { userId: stale.userId },
        actor: { audit: userActor("owner@example.com"), authority: "owner", userId: null },
      });
      await expect(
        inviteMember(app.deps, {
          accountId,
          accountName: "Test Store",
          email: uniqueEmail("rogue"),
          role: "member",
          actor: stale,
        }),
      ).rejects.toMatchObject({ code: "forbidden" });
      expect(await pending(accountId)).toEqual([]);
    });
  });
}
