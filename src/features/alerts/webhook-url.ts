/**
 * The team-chat webhook URL: validated when saved (CLI, dashboard) and again before each send,
 * and masked wherever it is shown or logged, because whoever holds the URL can post to the
 * channel. Validation here is the early, friendly check; the binding one is the SSRF guard at
 * connect time (`ssrf-guard.ts`), which also sees what a host name resolves to.
 */
import { ipVersion, isPublicAddress } from "../../lib/outbound/ip-address.js";
import { isStandardPort } from "../../lib/outbound/ssrf-guard.js";

export interface WebhookPolicy {
  /** WEBHOOKS_ALLOW_PRIVATE: plain http and private addresses are allowed. */
  allowPrivate: boolean;
}

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

const MAX_LENGTH = 2048;

export function checkWebhookUrl(raw: string, policy: WebhookPolicy): WebhookUrlCheck {
  const text = raw.trim();
  if (text.length > MAX_LENGTH)
    return { ok: false, reason: `the webhook URL is longer than ${MAX_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "the webhook URL is not a valid URL" };
  }
  if (url.protocol !== "https:" && !(policy.allowPrivate && url.protocol === "http:")) {
    return {
      ok: false,
      reason: policy.allowPrivate
        ? "the webhook URL must use https or http"
        : "the webhook URL must use https (set WEBHOOKS_ALLOW_PRIVATE=true for a plain-http chat server on a private network)",
    };
  }
  if (url.username !== "" || url.password !== "")
    return { ok: false, reason: "the webhook URL must not contain a user name or password" };
  if (url.hostname === "") return { ok: false, reason: "the webhook URL has no host" };
  if (!policy.allowPrivate) {
    // The WHATWG parser has already turned 2130706433, 0x7f.1 and 0177.0.0.1 into 127.0.0.1.
    const host = url.hostname;
    if (ipVersion(host) !== null && !isPublicAddress(host))
      return { ok: false, reason: `the webhook URL points to a non-public address (${host})` };
    if (isLocalhostName(host))
      return { ok: false, reason: `the webhook URL points to this machine (${host})` };
    if (!isStandardPort(url.protocol, url.port))
      return { ok: false, reason: "the webhook URL must use the standard port (443)" };
  }
  return { ok: true, url: url.href };
}

/**
 * What may be shown of a webhook URL: scheme, host and the last four characters, e.g.
 * `https://hooks.slack.com/…x9Qz`. Enough to tell two webhooks apart, not enough to post.
 */
export function maskWebhookUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "[invalid URL]";
  }
  const secret = `${url.pathname}${url.search}`;
  const tail = secret.length >= 12 ? secret.slice(-4) : "";
  return `${url.protocol}//${url.host}/…${tail}`;
}

function isLocalhostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost");
}
