/**
 * Sending through nodemailer to a real SMTP server on loopback: accepted, 4xx (retry), 5xx
 * (failed), no server (retry); the Message-ID we give is the one the server receives.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer, type TestSmtpServer } from "../../../test/support/smtp-server.js";
import type { AlertEmail } from "./build-alert-email.js";
import { classifySmtpError, createMailSender, type MailSender } from "./send-mail.js";

const message: AlertEmail = {
  from: "Velvet <alerts@velvet.example>",
  to: ["team@acme.com", "ceo@acme.com"],
  subject: "VIP customer: Jane Doe (score 87)",
  text: "Jane Doe is a VIP customer.",
  html: "<p>Jane Doe is a VIP customer.</p>",
  messageId: "<0190a000-0000-7000-8000-000000000001@velvet>",
};

describe("sending alert e-mail over SMTP", () => {
  let smtp: TestSmtpServer;
  let sender: MailSender;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    sender = createMailSender(smtp.url, { timeoutMs: 2000 });
  });
  afterAll(async () => {
    sender?.close();
    await smtp?.close();
  });

  it("delivers a multipart message with our Message-ID, From and To", async () => {
    expect(await sender.send(message)).toEqual({
      outcome: "delivered",
      statusCode: 250,
      error: null,
    });
    const [mail] = await smtp.waitForMessages(1);
    expect(mail?.parsed.messageId).toBe(message.messageId);
    expect(mail?.parsed.subject).toBe(message.subject);
    expect(mail?.parsed.text?.trim()).toBe(message.text);
    expect(mail?.parsed.html).toContain("<p>Jane Doe is a VIP customer.</p>");
    expect(mail?.parsed.from?.value).toEqual([
      { name: "Velvet", address: "alerts@velvet.example" },
    ]);
    expect(mail?.rcptTo).toEqual(["team@acme.com", "ceo@acme.com"]);
  });

  it("retries a 4xx and fails on a 5xx", async () => {
    smtp.failNext(451, 550);
    expect(await sender.send(message)).toMatchObject({ outcome: "retry", statusCode: 451 });
    expect(await sender.send(message)).toMatchObject({ outcome: "failed", statusCode: 550 });
    expect(smtp.received.slice(-2).map((m) => m.parsed.messageId)).toEqual([
      message.messageId,
      message.messageId,
    ]);
  });

  it("retries when no server answers", async () => {
    const gone = await startSmtpServer();
    await gone.close();
    const orphan = createMailSender(gone.url, { timeoutMs: 1000 });
    expect(await orphan.send(message)).toMatchObject({
      outcome: "retry",
      statusCode: null,
      error: expect.stringMatching(/ECONNREFUSED|ECONNECTION|ESOCKET/),
    });
    orphan.close();
  });
});

describe("classifySmtpError", () => {
  it("decides by the reply class, 503 being temporary", () => {
    expect(classifySmtpError({ responseCode: 421, response: "421 busy" }).outcome).toBe("retry");
    expect(classifySmtpError({ responseCode: 503, response: "503 bad sequence" }).outcome).toBe(
      "retry",
    );
    expect(classifySmtpError({ responseCode: 554, response: "554 no" }).outcome).toBe("failed");
    expect(
      classifySmtpError({ code: "ETIMEDOUT", message: "Greeting never received" }).outcome,
    ).toBe("retry");
    expect(classifySmtpError({ code: "EENVELOPE", message: "No recipients defined" }).outcome).toBe(
      "failed",
    );
  });
});
