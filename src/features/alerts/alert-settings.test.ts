import { describe, expect, it } from "vitest";
import { checkAlertSettings, splitAlertEmails } from "./alert-settings.js";

const strict = { allowPrivate: false };

describe("checkAlertSettings", () => {
  it("leaves out what was not given, and clears with an empty string", () => {
    expect(checkAlertSettings({}, strict)).toEqual({ ok: true, settings: {} });
    expect(checkAlertSettings({ slackWebhook: "", alertEmails: " " }, strict)).toEqual({
      ok: true,
      settings: { slackWebhookUrl: null, alertEmails: null },
    });
  });

  it("accepts a webhook and a list of addresses, dropping repeats", () => {
    expect(
      checkAlertSettings(
        {
          slackWebhook: "https://hooks.slack.com/services/T/B/x",
          alertEmails: "team@acme.com, CEO@acme.com,team@ACME.com",
        },
        strict,
      ),
    ).toEqual({
      ok: true,
      settings: {
        slackWebhookUrl: "https://hooks.slack.com/services/T/B/x",
        alertEmails: ["team@acme.com", "CEO@acme.com"],
      },
    });
  });

  it("reports every problem at once", () => {
    expect(
      checkAlertSettings(
        { slackWebhook: "http://hooks.slack.com/x", alertEmails: "ok@acme.com,nope,also@bad" },
        strict,
      ),
    ).toEqual({
      ok: false,
      errors: [
        expect.stringMatching(/must use https/),
        "not valid e-mail addresses: nope, also@bad",
      ],
    });
    const many = Array.from({ length: 21 }, (_, i) => `a${i}@acme.com`).join(",");
    expect(checkAlertSettings({ alertEmails: many }, strict)).toMatchObject({ ok: false });
  });

  it("splits stored lists", () => {
    expect(splitAlertEmails(null)).toEqual([]);
    expect(splitAlertEmails("a@x.com,b@y.com")).toEqual(["a@x.com", "b@y.com"]);
  });
});
