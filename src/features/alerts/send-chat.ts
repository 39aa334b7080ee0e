/**
 * Posting to a Slack-compatible incoming webhook (Slack, Mattermost, Rocket.Chat): one JSON
 * POST through the SSRF-guarded agent, with a timeout, no redirects followed, paced per webhook,
 * and the answer classified as a DeliveryResult. Slack's documented answers: 200 `ok`; 400
 * `invalid_payload`/`no_text`; 403 `action_prohibited`/`invalid_token`; 404
 * `channel_not_found`/`no_service`; 410 `channel_is_archived`; 429 with Retry-After (a wait,
 * not a failure); 5xx.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type Agent, request } from "undici";
import { parseRetryAfter } from "../../lib/retry-after.js";
import { type DeliveryResult, excerpt } from "./delivery-result.js";
import { createGuardedAgent, type Resolver, SsrfError } from "./ssrf-guard.js";
import { WebhookPacer } from "./webhook-pacer.js";
import { checkWebhookUrl } from "./webhook-url.js";

export interface ChatSenderOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** One message per this interval per webhook (Slack: about one per second). */
  pacingIntervalMs: number;
  /** Wait in process up to this long for a pacing slot; beyond it the job is rescheduled. */
  maxPacingWaitMs: number;
  resolve?: Resolver;
}

export interface ChatSender {
  send(webhookUrl: string, payload: object, signal: AbortSignal): Promise<DeliveryResult>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024;
/** A 429 without a usable Retry-After still waits this long. */
const RATE_LIMIT_MIN_WAIT_MS = 1000;

export function createChatSender(options: ChatSenderOptions): ChatSender {
  const agent: Agent = createGuardedAgent({
    allowPrivate: options.allowPrivate,
    connectTimeoutMs: options.timeoutMs,
    resolve: options.resolve,
  });
  const pacer = new WebhookPacer({
    intervalMs: options.pacingIntervalMs,
    maxWaitMs: options.maxPacingWaitMs,
  });

  async function send(webhookUrl: string, payload: object, signal: AbortSignal) {
    const checked = checkWebhookUrl(webhookUrl, { allowPrivate: options.allowPrivate });
    if (!checked.ok) return notPublic(checked.reason);
    const slot = pacer.reserve(checked.url);
    if (slot.kind === "later") {
      return {
        outcome: "deferred",
        statusCode: null,
        delayMs: slot.delayMs,
        error: "paced: at most one message per second per webhook",
      } satisfies DeliveryResult;
    }
    const waitMs = Math.ceil(slot.waitMs);
    const timeout = AbortSignal.timeout(options.timeoutMs + waitMs);
    const combined = AbortSignal.any([signal, timeout]);
    try {
      if (waitMs > 0) await sleep(waitMs, undefined, { signal: combined });
      const res = await request(checked.url, {
        method: "POST",
        dispatcher: agent,
        signal: combined,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        headers: { "content-type": "application/json", "user-agent": "Velvet-Alerts/1" },
        body: JSON.stringify(payload),
      });
      const body = await readCapped(res.body);
      const header = res.headers["retry-after"];
      const result = classifyChatResponse(
        res.statusCode,
        body,
        Array.isArray(header) ? header[0] : header,
      );
      if ((result.outcome === "retry" || result.outcome === "deferred") && result.delayMs)
        pacer.defer(checked.url, result.delayMs);
      return result;
    } catch (error) {
      if (signal.aborted) return retry(null, "aborted: the worker is stopping");
      if (timeout.aborted) return retry(null, `timed out after ${options.timeoutMs} ms`);
      return classifyChatError(error);
    }
  }

  return { send, close: () => agent.close() };
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

export function classifyChatError(error: unknown): DeliveryResult {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof SsrfError) return notPublic(e.message);
  }
  const err = error as { code?: unknown; message?: unknown };
  const code = typeof err.code === "string" ? err.code : null;
  const message = typeof err.message === "string" ? err.message : String(error);
  return retry(
    null,
    excerpt(code !== null && !message.includes(code) ? `${code}: ${message}` : message),
  );
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_BODY_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString("utf8");
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
