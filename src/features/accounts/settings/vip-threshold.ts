/** The VIP threshold: a customer scoring above it is a VIP (features/enrichment). */
import { defineSetting } from "./account-setting.js";

export const DEFAULT_VIP_THRESHOLD = 70;

export const vipThreshold = defineSetting({
  column: "vip_threshold",
  label: "VIP threshold",
  default: DEFAULT_VIP_THRESHOLD,
  parse(text: string) {
    const v = text.trim();
    if (!/^\d+$/.test(v) || Number(v) > 100)
      return { ok: false, problem: "the threshold is a whole number from 0 to 100" };
    return { ok: true, value: Number(v) };
  },
  text: (value: number) => String(value),
  role: "admin",
  audit: { action: "alert_settings.changed", detail: "threshold" },
  form: {
    page: "alerts",
    name: "threshold",
    title: "VIP threshold",
    label: "Alert when the score is above",
    help: "From 0 to 100. A customer is a VIP when their score is above this number. A change applies to customers enriched from now on.",
    input: { kind: "number", min: 0, max: 100 },
    required: true,
    error: () => "Enter a whole number from 0 to 100.",
  },
  cli: {
    flag: "--threshold <0-100>",
    description: "VIP threshold: a customer scoring above it is a VIP",
  },
});
