/**
 * Posting to a Slack-compatible incoming webhook (Slack, Mattermost, Rocket.Chat): one JSON
 * POST through the SSRF-guarded agent, with a timeout, no redirects followed, paced per webhook,
 * and the answer classified as a DeliveryResult. Slack's documented answers: 200 `ok`; 400
 * `invalid_payload`/`no_text`; 403 `action_prohibited`/`invalid_token`; 404
 * `channel_not_found`/`no_service`; 410 `channel_is_archived`; 429 with Retry-After (a wait,
 * not a failure); 5xx.
 */
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { excerpt } from "../../lib/excerpt.js";
import {
  createOutboundHttp,
  type OutboundHttp,
  type OutboundResponse,
} from "../../lib/outbound/outbound-http.js";
import type { Resolver } from "../../lib/outbound/ssrf-guard.js";
import { parseRetryAfter } from "../../lib/retry-after.js";
import type { SharedSlots } from "../shared-limits/shared-slots.js";
import type { DeliveryResult } from "./delivery-result.js";
import { type Reservation, WebhookPacer } from "./webhook-pacer.js";
import { checkWebhookUrl } from "./webhook-url.js";

export interface ChatSenderOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** One message per this interval per webhook (Slack: about one per second). */
  pacingIntervalMs: number;
  /** Wait in process up to this long for a pacing slot; beyond it the job is rescheduled. */
  maxPacingWaitMs: number;
  resolve?: Resolver;
  /** The process's outbound client (main.ts); without it the sender builds and owns one. */
  http?: OutboundHttp;
  /**
   * Slots shared by every process on the database (main.ts): the pace then holds for the
   * cluster. Without them, or while the database cannot be reached, this process paces alone.
   */
  shared?: SharedSlots;
}

export interface ChatSender {
  send(webhookUrl: string, payload: object, signal: AbortSignal): Promise<DeliveryResult>;
  close(): Promise<void>;
}

/** Slack answers with a word or two; the excerpt kept for the attempt log needs no more. */
const MAX_BODY_BYTES = 1024;
/** A 429 without a usable Retry-After still waits this long. */
const RATE_LIMIT_MIN_WAIT_MS = 1000;

export function createChatSender(options: ChatSenderOptions): ChatSender {
  const owned = options.http === undefined;
  const http =
    options.http ??
    createOutboundHttp({
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs,
      maxBodyBytes: MAX_BODY_BYTES,
      userAgent: "Velvet-Alerts/1",
      resolve: options.resolve,
    });
  const pacer = new WebhookPacer({
    intervalMs: options.pacingIntervalMs,
    maxWaitMs: options.maxPacingWaitMs,
  });

  async function send(webhookUrl: string, payload: object, signal: AbortSignal) {
    const checked = checkWebhookUrl(webhookUrl, { allowPrivate: options.allowPrivate });
    if (!checked.ok) return notPublic(checked.reason);
    const slot = await reserve(checked.url);
    if (slot.kind === "later") {
      return {
        outcome: "deferred",
        statusCode: null,
        delayMs: slot.delayMs,
        error: "paced: at most one message per second per webhook",
      } satisfies DeliveryResult;
    }
    const waitMs = Math.ceil(slot.waitMs);
    if (waitMs > 0) {
      try {
        await sleep(waitMs, undefined, { signal });
      } catch {
        return retry(null, "aborted: the worker is stopping");
      }
    }
    const res = await http.send(
      {
        url: checked.url,
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "Velvet-Alerts/1" },
        body: JSON.stringify(payload),
        timeoutMs: options.timeoutMs,
        maxBodyBytes: MAX_BODY_BYTES,
      },
      signal,
    );
    const result = chatResult(res);
    if ((result.outcome === "retry" || result.outcome === "deferred") && result.delayMs) {
      pacer.defer(checked.url, result.delayMs);
      await options.shared?.defer(sharedName(checked.url), result.delayMs);
    }
    return result;
  }

  async function reserve(url: string): Promise<Reservation> {
    const shared = await options.shared?.reserve({
      name: sharedName(url),
      intervalMs: options.pacingIntervalMs,
      maxWaitMs: options.maxPacingWaitMs,
    });
    return shared ?? pacer.reserve(url);
  }

  return { send, close: async () => (owned ? http.close() : undefined) };
}

/**
 * The shared row of a webhook: a webhook URL is a secret (whoever holds it can post), so the
 * table keys it by its SHA-256, never by the URL.
 */
export function sharedName(url: string): string {
  return `chat:${createHash("sha256").update(url).digest("hex")}`;
}

/** The outbound client's value, read as Slack's answers mean it. */
export function chatResult(res: OutboundResponse): DeliveryResult {
  if (res.kind === "refused") return notPublic(res.error);
  if (res.kind !== "answered") return retry(null, res.error);
  const header = res.headers["retry-after"];
  return classifyChatResponse(res.status, res.body, Array.isArray(header) ? header[0] : header);
}

export function classifyChatResponse(
  status: number,
  body: string,
  retryAfter: string | undefined,
  nowMs = Date.now(),
): DeliveryResult {
  const answer = `${status} ${excerpt(body)}`.trim();
  if (status >= 200 && status < 300)
    return { outcome: "delivered", statusCode: status, error: null };
  if (status >= 300 && status < 400)
    return failed(status, `${status}: redirects are not followed for webhooks`);
  if (status === 429) {
    // Slow down, not broken: wait as long as asked (at least a second) without an attempt.
    const delayMs =
      parseRetryAfter(retryAfter, nowMs, RATE_LIMIT_MIN_WAIT_MS) ?? RATE_LIMIT_MIN_WAIT_MS;
    return { outcome: "deferred", statusCode: status, delayMs, error: answer };
  }
  if (status === 408 || status >= 500) {
    const delayMs = parseRetryAfter(retryAfter, nowMs, 1000);
    return delayMs === undefined ? retry(status, answer) : { ...retry(status, answer), delayMs };
  }
  // 400 invalid_payload/no_text, 403 invalid_token/action_prohibited, 404 channel_not_found/
  // no_service, 410 channel_is_archived, and any other 4xx: the same request cannot succeed.
  return failed(status, answer);
}

function retry(statusCode: number | null, error: string): DeliveryResult & { outcome: "retry" } {
  return { outcome: "retry", statusCode, error };
}

function notPublic(error: string): DeliveryResult {
  return { outcome: "failed", statusCode: null, error, notPublic: true };
}

function failed(statusCode: number | null, error: string): DeliveryResult {
  return { outcome: "failed", statusCode, error };
}
