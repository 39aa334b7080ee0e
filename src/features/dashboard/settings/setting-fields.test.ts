/**
 * The settings' fields as the dashboard builds them from the declarations: the Alerts page's
 * panels in order with each field's attributes, a form read by the settings' own rules (a
 * required field missing is refused, an optional one missing is left alone), a setting
 * shown but not offered to a role that may not change it, and a page's own content in a panel.
 */
import { describe, expect, it } from "vitest";
import { html } from "../html/html.js";
import {
  fieldError,
  pageRole,
  pageSettings,
  readSettingTexts,
  settingPanels,
  submittedSettingTexts,
} from "./setting-fields.js";

describe("settings fields", () => {
  it("puts the Alerts page's settings in their panels, in order, as declared", () => {
    expect(pageSettings("alerts").map((s) => s.key)).toEqual(["vipThreshold", "tiers"]);
    expect(pageSettings("billing").map((s) => s.key)).toEqual(["monthlyBudgetUsd"]);
    const page = String(
      settingPanels("alerts", { vipThreshold: "55", tiers: "Gold:90" }, { tiers: "No." }, "admin"),
    );
    expect(page.indexOf('id="threshold-title">VIP threshold</h2>')).toBeLessThan(
      page.indexOf('id="tiers-title">Tiers</h2>'),
    );
    expect(page).toContain(
      '<input type="number" id="f-threshold" name="threshold" required aria-describedby="f-threshold-help" value="55" min="0" max="100">',
    );
    expect(page).toContain(
      'name="tiers" autocomplete="off" placeholder="Gold:90, Silver:80" aria-describedby="f-tiers-help f-tiers-error" aria-invalid="true"',
    );
    expect(page).toContain('<div class="error-text" id="f-tiers-error">No.</div>');
  });

  it("reads a form by the settings' rules, leaving out what the form did not carry", () => {
    const body = new URLSearchParams({ threshold: "" });
    const texts = submittedSettingTexts(body, "alerts", "admin");
    expect(texts).toEqual({ vipThreshold: "" });
    expect(readSettingTexts(texts)).toEqual({
      values: {},
      errors: { vipThreshold: "Enter a whole number from 0 to 100." },
    });
    const good = submittedSettingTexts(
      new URLSearchParams({ threshold: "60", tiers: "Gold:90, gold:80" }),
      "alerts",
      "owner",
    );
    expect(readSettingTexts(good).values).toEqual({ vipThreshold: 60 });
    expect(readSettingTexts(good).errors.tiers).toMatch(/^Two tiers are named "Gold".*\.$/);
    expect(readSettingTexts({ monthlyBudgetUsd: "ten" }).errors).toEqual({
      monthlyBudgetUsd:
        "Enter an amount in USD, such as 50 or 49.99, or leave it empty for no budget.",
    });
  });

  it("makes a setting's problem a sentence when its declaration has no error text of its own", () => {
    expect(fieldError("tiers", "two tiers are named Gold")).toBe("Two tiers are named Gold.");
    expect(fieldError("tiers", "two tiers are named Gold.")).toBe("Two tiers are named Gold.");
  });

  it("shows a setting to a role that may not change it, and ignores it in that role's form", () => {
    const body = new URLSearchParams({ budget: "5" });
    expect(submittedSettingTexts(body, "billing", "admin")).toEqual({});
    expect(submittedSettingTexts(body, "billing", "owner")).toEqual({ monthlyBudgetUsd: "5" });
    const shown = String(settingPanels("billing", { monthlyBudgetUsd: "50" }, {}, "admin"));
    expect(shown).not.toContain("<input");
    expect(shown).toContain("Monthly budget (USD): 50");
    expect(shown).toContain("Only the account's owners can change this.");
  });

  it("puts a page's own content in a setting's panel, above its field or its value", () => {
    const lead = { monthlyBudgetUsd: html`<p id="lead">Spent so far.</p>` };
    for (const role of ["owner", "admin"] as const) {
      const panel = String(settingPanels("billing", { monthlyBudgetUsd: "50" }, {}, role, lead));
      expect(panel.indexOf('<p id="lead">')).toBeGreaterThan(panel.indexOf("</h2>"));
      expect(panel.indexOf('<p id="lead">')).toBeLessThan(
        panel.indexOf(role === "owner" ? 'name="budget"' : "Monthly budget (USD): 50"),
      );
    }
    // Who may post a page's form: the lowest role that may change one of its settings.
    expect(pageRole("billing")).toBe("owner");
    expect(pageRole("alerts")).toBe("admin");
  });
});
