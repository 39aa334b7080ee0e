/**
 * Replays of the second review's invitation-mail findings, on both engines, with a real SMTP
 * server: a burst of invitations mailed every one (20 to one address), and a store name chosen
 * to phish went into the subject unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startSmtpServer, type TestSmtpServer } from "../../../../test/support/smtp-server.js";
import { invite } from "../../../../test/support/team.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { INVITATION_MAIL_POLICY } from "../../team/invite-member.js";

const PHISH = "Refund pending: claim at https://phish.example/refund now";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`invitation mails on ${engine.name}`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(engine, { env: { SMTP_URL: smtp.url } });
    });
    afterAll(async () => {
      await app?.close();
      await smtp?.close();
    });

    const mailsTo = (email: string) => smtp.messages.filter((m) => m.rcptTo.includes(email));

    it("mails one address at most the policy's few times however fast it is invited, and still shows the link", async () => {
      const { browser: owner } = await signInNewAccount(app);
      const victim = uniqueEmail("victim");
      const burst = await Promise.all(
        Array.from({ length: 20 }, () => invite(owner, "member", victim)),
      );
      expect(burst.every((b) => b.res.status === 200 && b.path !== "")).toBe(true);
      // Then one at a time, as a patient sender would: the cap holds, and the page says why.
      let later = await invite(owner, "member", victim);
      for (let i = 0; i < 4; i++) later = await invite(owner, "member", victim);
      expect(later.path).not.toBe("");
      expect(later.html).toContain("too many invitation e-mails today");
      // Each invitation's mail is handed to the SMTP server before its page answers.
      const received = mailsTo(victim).length;
      expect(received).toBeGreaterThanOrEqual(1);
      expect(received).toBeLessThanOrEqual(INVITATION_MAIL_POLICY.perEmailAndIp);
    });

    it("mails at most the policy's number of invitations a day from one account", async () => {
      const { browser: owner } = await signInNewAccount(app);
      const before = smtp.messages.length;
      const cap = INVITATION_MAIL_POLICY.perIp;
      // Each invitation's mail is handed to the SMTP server before its page answers.
      for (let i = 0; i < cap + 5; i++) await invite(owner, "member", uniqueEmail(`team${i}`));
      expect(smtp.messages.length - before).toBe(cap);
    });

    it("shortens the store's name and strips its links in the subject and the body", async () => {
      const { browser: owner } = await signInNewAccount(app, { storeName: PHISH });
      const to = uniqueEmail("colleague");
      const before = smtp.messages.length;
      await invite(owner, "member", to);
      const [mail] = (await smtp.waitForMessages(before + 1)).slice(before);
      expect(mail?.rcptTo).toEqual([to]);
      const subject = mail?.parsed.subject ?? "";
      expect(subject).not.toMatch(/phish|https?:/i);
      expect(subject.length).toBeLessThanOrEqual(70);
      const text = mail?.parsed.text ?? "";
      expect(text).not.toMatch(/phish\.example/i);
      expect(text).toContain("Refund pending: claim at");
    });
  });
}
