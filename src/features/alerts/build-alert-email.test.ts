/** The e-mail: the same content as the chat message, in text and HTML, HTML-escaped. */
import { describe, expect, it } from "vitest";
import { HOSTILE_CONTENT, SAMPLE_CONTENT } from "../../../test/support/alert-fixtures.js";
import { verdictLinks } from "../verdicts/verdict-links.js";
import { buildAlertEmail } from "./build-alert-email.js";

describe("buildAlertEmail", () => {
  const envelope = {
    from: "Velvet <alerts@velvet.example>",
    to: ["team@acme.com", "ceo@acme.com"],
    messageId: "<abc@velvet>",
  };

  it("shows the customer's tier beside the score in the subject, the text and the HTML", () => {
    const mail = buildAlertEmail({ ...SAMPLE_CONTENT, tier: "Gold & Co" }, envelope);
    expect(mail.subject).toBe("VIP customer: Jane Doe (score 87 · Gold & Co)");
    expect(mail.text).toContain("Score:    87 · Gold & Co (threshold 70)");
    expect(mail.html).toContain("87 · Gold &amp; Co (threshold 70)");
  });

  it("carries the same content in text and HTML, with the stable Message-ID", () => {
    const mail = buildAlertEmail(SAMPLE_CONTENT, envelope);
    expect(mail).toMatchObject(envelope);
    expect(mail.subject).toBe("VIP customer: Jane Doe (score 87)");
    for (const part of [mail.text, mail.html]) {
      for (const piece of [
        "Jane Doe",
        "87 (threshold 70)",
        "#1001 · €1,250.00",
        "Austin, TX, US",
        "Seniority: c_level (+25)",
        "Net worth: $5,000,000 (+20)",
        SAMPLE_CONTENT.customerUrl,
      ]) {
        expect(part).toContain(piece);
      }
    }
    expect(mail.html).toContain(`<a href="${SAMPLE_CONTENT.customerUrl}">Open in Velvet</a>`);
  });

  it("adds the signed Right / Not a VIP links to both parts when the alert has them", () => {
    const links = verdictLinks("https://velvet.example.com", {
      id: "0190a000-0000-7000-8000-0000000000aa",
      verdictSecret: "s".repeat(43),
    });
    const mail = buildAlertEmail({ ...SAMPLE_CONTENT, verdictLinks: links }, envelope);
    expect(links).not.toBeNull();
    expect(mail.text).toContain(`  Right:     ${links?.right}\n  Not a VIP: ${links?.wrong}\n`);
    expect(mail.html).toContain(`href="${links?.right.replaceAll("&", "&amp;")}"`);
    expect(mail.html).toContain(`href="${links?.wrong.replaceAll("&", "&amp;")}"`);
    expect(mail.html).toContain(">Not a VIP</a>");
    // The same alert always gives the same message.
    expect(buildAlertEmail({ ...SAMPLE_CONTENT, verdictLinks: links }, envelope)).toEqual(mail);
    // Without links (an alert from before verdicts), nothing about them.
    expect(buildAlertEmail(SAMPLE_CONTENT, envelope).text).not.toContain("Not a VIP");
  });

  it("keeps the customer's text in the subject short, on one line and without links", () => {
    const phishing = "URGENT: your account is locked, verify at https://evil.example/login";
    const mail = buildAlertEmail({ ...SAMPLE_CONTENT, customerName: phishing }, envelope);
    expect(mail.subject).toBe("VIP customer: URGENT: your account is locked, verify… (score 87)");
    for (const name of [
      "Visit www.evil.example now",
      "Go to evil.example/x",
      "mail bob@evil.example",
    ]) {
      const subject = buildAlertEmail({ ...SAMPLE_CONTENT, customerName: name }, envelope).subject;
      expect(subject, name).not.toMatch(/evil|www\./);
    }
    // A name that was only a link still gives a sensible subject.
    expect(
      buildAlertEmail({ ...SAMPLE_CONTENT, customerName: "https://evil.example" }, envelope)
        .subject,
    ).toBe("VIP customer: a new customer (score 87)");
    // The body still tells the whole (escaped) name: the merchant sees what the customer typed.
    expect(buildAlertEmail({ ...SAMPLE_CONTENT, customerName: phishing }, envelope).text).toContain(
      phishing,
    );
  });

  it("HTML-escapes every piece of customer data and keeps the subject on one line", () => {
    const mail = buildAlertEmail(
      { ...HOSTILE_CONTENT, customerName: "Eve\r\nBcc: x@evil.example <i>" },
      envelope,
    );
    expect(mail.subject).toBe("VIP customer: Eve Bcc: <i> (score 87)");
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<b>Paris");
    expect(mail.html).toContain("&lt;b&gt;Paris&lt;/b&gt;");
    expect(mail.html).toContain("R&amp;D &lt;shop&gt;");
    expect(mail.html).toContain("&lt;@U123&gt; boss");
    expect(mail.html).toContain("a&amp;b@acme.com");
  });
});
