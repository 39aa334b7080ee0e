/**
 * Posting to a webhook, against the fake Slack server on loopback: each of Slack's answers is
 * classified as delivered, retry or failed; redirects are not followed; timeouts and refused
 * connections are retried; pacing spaces messages to one webhook.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ChatReply,
  type FakeChatServer,
  startChatServer,
} from "../../../test/fakes/chat-server.js";
import {
  type ChatSender,
  type ChatSenderOptions,
  classifyChatResponse,
  createChatSender,
} from "./send-chat.js";
import { checkWebhookUrl } from "./webhook-url.js";

const base: ChatSenderOptions = {
  allowPrivate: true,
  timeoutMs: 2000,
  pacingIntervalMs: 0,
  maxPacingWaitMs: 1000,
};
const payload = { text: "VIP customer: Jane Doe", blocks: [] };
const never = new AbortController().signal;

describe("sending to a chat webhook", () => {
  let chat: FakeChatServer;
  let sender: ChatSender;
  beforeAll(async () => {
    chat = await startChatServer();
  });
  afterAll(() => chat?.close());
  // A fresh sender per test: a 429 rightly holds back later messages to the same webhook.
  beforeEach(() => {
    chat.requests.length = 0;
    sender = createChatSender(base);
    return () => sender.close();
  });

  it("posts the payload as JSON and reports 200 ok as delivered", async () => {
    const result = await sender.send(chat.webhookUrl, payload, never);
    expect(result).toEqual({ outcome: "delivered", statusCode: 200, error: null });
    expect(chat.requests).toHaveLength(1);
    expect(chat.requests[0]?.headers["content-type"]).toBe("application/json");
    expect(chat.requests[0]?.path).toBe("/services/T0001/B0002/abcdefghijklmnopqrstuvwx");
    expect(chat.requests[0]?.body).toEqual(payload);
  });

  const permanent: Array<[ChatReply, number]> = [
    ["invalid_payload", 400],
    ["no_text", 400],
    ["invalid_token", 403],
    ["action_prohibited", 403],
    ["channel_not_found", 404],
    ["no_service", 404],
    ["channel_is_archived", 410],
  ];
  it.each(permanent)("treats %s (%i) as a permanent failure", async (reply, status) => {
    chat.reply(reply);
    expect(await sender.send(chat.webhookUrl, payload, never)).toEqual({
      outcome: "failed",
      statusCode: status,
      error: `${status} ${reply}`,
    });
  });

  it("defers a 429 for its Retry-After (a wait, not a failure), and retries a 500 with backoff", async () => {
    chat.reply({ rateLimited: 7 });
    expect(await sender.send(chat.webhookUrl, payload, never)).toEqual({
      outcome: "deferred",
      statusCode: 429,
      error: "429 rate_limited",
      delayMs: 7000,
    });
    chat.reply("server_error");
    expect(
      await sender.send(`${chat.origin}/services/T/B/another-webhook`, payload, never),
    ).toEqual({
      outcome: "retry",
      statusCode: 500,
      error: "500 server_error",
    });
  });

  it("holds back a webhook's next message after its 429, in this process", async () => {
    const held = createChatSender({ ...base, pacingIntervalMs: 1, maxPacingWaitMs: 100 });
    chat.reply({ rateLimited: 5 });
    expect(await held.send(chat.webhookUrl, payload, never)).toMatchObject({ statusCode: 429 });
    expect(await held.send(chat.webhookUrl, payload, never)).toMatchObject({
      outcome: "deferred",
      delayMs: expect.any(Number),
    });
    expect(chat.requests).toHaveLength(1);
    await held.close();
  });

  it("does not follow a redirect: it is a permanent failure", async () => {
    chat.reply({ redirect: `${chat.origin}/elsewhere` });
    expect(await sender.send(chat.webhookUrl, payload, never)).toMatchObject({
      outcome: "failed",
      statusCode: 302,
      error: expect.stringMatching(/redirects are not followed/),
    });
    expect(chat.requests.map((r) => r.path)).toEqual([
      "/services/T0001/B0002/abcdefghijklmnopqrstuvwx",
    ]);
  });

  it("retries after a timeout", async () => {
    const quick = createChatSender({ ...base, timeoutMs: 200 });
    chat.reply({ hangMs: 3000 });
    expect(await quick.send(chat.webhookUrl, payload, never)).toEqual({
      outcome: "retry",
      statusCode: null,
      error: "timed out after 200 ms",
    });
    await quick.close();
  });

  it("retries a refused connection, and stops when the worker aborts", async () => {
    const closed = await startChatServer();
    const url = closed.webhookUrl;
    await closed.close();
    expect(await sender.send(url, payload, never)).toMatchObject({
      outcome: "retry",
      statusCode: null,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
    const stop = new AbortController();
    chat.reply({ hangMs: 3000 });
    setTimeout(() => stop.abort(), 50);
    expect(await sender.send(chat.webhookUrl, payload, stop.signal)).toMatchObject({
      outcome: "retry",
      error: "aborted: the worker is stopping",
    });
  });

  it("refuses http and private hosts unless allowed, before and at connect time", async () => {
    const strict = createChatSender({
      ...base,
      allowPrivate: false,
      resolve: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    expect(await strict.send(chat.webhookUrl, payload, never)).toMatchObject({
      outcome: "failed",
      error: expect.stringMatching(/must use https/),
      notPublic: true,
    });
    // Saved as a harmless-looking https name, resolving to loopback when sent.
    const url = "https://hooks.example.com/services/T/B/secret";
    expect(checkWebhookUrl(url, { allowPrivate: false }).ok).toBe(true);
    expect(await strict.send(url, payload, never)).toEqual({
      outcome: "failed",
      statusCode: null,
      error:
        "refused to connect: hooks.example.com resolves to 127.0.0.1, which is not a public address",
      notPublic: true,
    });
    expect(chat.requests).toHaveLength(0);
    await strict.close();
  });

  it("sends at most one message per interval to one webhook", async () => {
    const paced = createChatSender({ ...base, pacingIntervalMs: 300, maxPacingWaitMs: 1000 });
    await Promise.all([1, 2, 3].map(() => paced.send(chat.webhookUrl, payload, never)));
    const times = chat.requests.map((r) => r.at);
    expect(times).toHaveLength(3);
    // Paced when sent; measured on arrival, where connection set-up adds some jitter.
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(200);
    expect((times[2] as number) - (times[1] as number)).toBeGreaterThanOrEqual(200);
    // A slot further away than the longest wait is handed back: the job is rescheduled.
    const impatient = createChatSender({ ...base, pacingIntervalMs: 5000, maxPacingWaitMs: 100 });
    await impatient.send(chat.webhookUrl, payload, never);
    expect(await impatient.send(chat.webhookUrl, payload, never)).toMatchObject({
      outcome: "deferred",
      delayMs: expect.any(Number),
    });
    expect(chat.requests).toHaveLength(4);
    await paced.close();
    await impatient.close();
  });
});

describe("classifyChatResponse", () => {
  it("accepts any 2xx (Mattermost and Rocket.Chat answer differently from Slack)", () => {
    expect(classifyChatResponse(200, '{"success":true}', undefined).outcome).toBe("delivered");
  });

  it("reads Retry-After as seconds or an HTTP date, and retries 503 and 408", () => {
    const now = Date.UTC(2025, 0, 1, 12);
    const date = new Date(now + 30_000).toUTCString();
    expect(classifyChatResponse(503, "", date, now)).toMatchObject({
      outcome: "retry",
      delayMs: 30_000,
    });
    expect(classifyChatResponse(408, "", undefined, now)).toMatchObject({ outcome: "retry" });
    expect(classifyChatResponse(401, "nope", undefined, now)).toMatchObject({ outcome: "failed" });
  });
});
