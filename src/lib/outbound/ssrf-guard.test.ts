/**
 * The SSRF guard at connect time, against a real server on loopback: a name that resolves to a
 * forbidden address, an IP literal in any notation, and a DNS answer that changes after the URL
 * was accepted are all refused before a byte is sent; with allowPrivate they go through.
 */
import type { LookupAddress } from "node:dns";
import { request } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import {
  createGuardedAgent,
  guardedLookup,
  isStandardPort,
  type Resolver,
  SsrfError,
} from "./ssrf-guard.js";

const fixed =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address): LookupAddress => ({ address, family: address.includes(":") ? 6 : 4 }));

async function post(url: string, agent: ReturnType<typeof createGuardedAgent>) {
  try {
    const res = await request(url, { method: "POST", body: "{}", dispatcher: agent });
    await res.body.text();
    return { status: res.statusCode };
  } catch (error) {
    return { error };
  }
}

describe("SSRF guard at connect time", () => {
  let chat: FakeChatServer;
  beforeAll(async () => {
    chat = await startChatServer();
  });
  afterAll(() => chat?.close());
  beforeEach(() => {
    chat.requests.length = 0;
  });

  it("refuses a host name that resolves to loopback (localhost)", async () => {
    const agent = createGuardedAgent({ allowPrivate: false, connectTimeoutMs: 2000 });
    const result = await post(`http://localhost:${chat.port}/hook`, agent);
    expect(result.error).toBeInstanceOf(SsrfError);
    expect(String((result.error as Error).message)).toMatch(
      /localhost resolves to .*not a public address/,
    );
    expect(chat.requests).toHaveLength(0);
    await agent.close();
  });

  it("lets the same request through when private addresses are allowed", async () => {
    const agent = createGuardedAgent({ allowPrivate: true, connectTimeoutMs: 2000 });
    expect(await post(`http://localhost:${chat.port}/hook`, agent)).toEqual({ status: 200 });
    expect(chat.requests).toHaveLength(1);
    await agent.close();
  });

  const literals = [
    "127.0.0.1",
    "2130706433", // decimal, normalised by the URL parser to 127.0.0.1
    "0x7f000001",
    "0177.0.0.1",
    "127.1",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
  ];
  it.each(literals)("refuses the IP literal %s", async (host) => {
    const agent = createGuardedAgent({ allowPrivate: false, connectTimeoutMs: 2000 });
    const result = await post(`http://${host}:${chat.port}/hook`, agent);
    expect(result.error).toBeInstanceOf(SsrfError);
    expect(chat.requests).toHaveLength(0);
    await agent.close();
  });

  it("refuses a name that is rebound to the metadata address after it was accepted", async () => {
    let answer = "93.184.215.14";
    const resolve: Resolver = async () => [{ address: answer, family: 4 }];
    const agent = createGuardedAgent({ allowPrivate: false, connectTimeoutMs: 2000, resolve });
    answer = "169.254.169.254";
    const result = await post(`http://hooks.example.com:${chat.port}/hook`, agent);
    expect(result.error).toBeInstanceOf(SsrfError);
    expect((result.error as Error).message).toMatch(/169\.254\.169\.254/);
    await agent.close();
  });

  it("uses only port 443 for https and 80 for http, on public addresses too, before connecting", async () => {
    const resolve = fixed("93.184.215.14");
    const agent = createGuardedAgent({ allowPrivate: false, connectTimeoutMs: 2000, resolve });
    for (const url of [
      "https://hooks.example.com:8443/hook",
      "http://hooks.example.com:22/hook",
      "https://93.184.215.14:6379/x",
      "http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:25/x",
    ]) {
      const result = await post(url, agent);
      expect(result.error).toBeInstanceOf(SsrfError);
      expect((result.error as Error).message).toMatch(/port \d+; outgoing calls use port 443/);
    }
    await agent.close();
    const open = createGuardedAgent({ allowPrivate: true, connectTimeoutMs: 2000 });
    expect(await post(`http://127.0.0.1:${chat.port}/hook`, open)).toEqual({ status: 200 });
    await open.close();
  });

  it("refuses a name when any one of its addresses is forbidden", async () => {
    const resolve = fixed("93.184.215.14", "::ffff:a9fe:a9fe");
    const agent = createGuardedAgent({ allowPrivate: false, connectTimeoutMs: 2000, resolve });
    const result = await post(`http://mixed.example.com:${chat.port}/hook`, agent);
    expect(result.error).toBeInstanceOf(SsrfError);
    await agent.close();
  });
});

describe("guardedLookup", () => {
  const run = (resolve: Resolver, options: { all?: boolean; family?: number }) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((done) =>
      guardedLookup(resolve)("hooks.example.com", options, (error, address, family) =>
        done({ error, address, family }),
      ),
    );

  it("answers in both lookup shapes for public addresses", async () => {
    const resolve = fixed("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c");
    expect(await run(resolve, {})).toEqual({ error: null, address: "93.184.215.14", family: 4 });
    expect(await run(resolve, { all: true })).toMatchObject({
      error: null,
      address: [
        { address: "93.184.215.14" },
        { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c" },
      ],
    });
    expect(await run(resolve, { family: 6 })).toMatchObject({ family: 6 });
  });

  it.each(["10.0.0.5", "fd00:ec2::254", "::ffff:169.254.169.254", "100.64.1.1", "0.0.0.0"])(
    "refuses a name resolving to %s",
    async (address) => {
      const result = await run(fixed(address), { all: true });
      expect(result.error).toBeInstanceOf(SsrfError);
    },
  );
});

describe("isStandardPort", () => {
  it("admits the default and explicit 443 for https, 80 for http, nothing else", () => {
    expect(isStandardPort("https:", "")).toBe(true);
    expect(isStandardPort("https:", "443")).toBe(true);
    expect(isStandardPort("http:", 80)).toBe(true);
    expect(isStandardPort("https:", "80")).toBe(false);
    expect(isStandardPort("http:", "443")).toBe(false);
    expect(isStandardPort("https:", "8443")).toBe(false);
    expect(isStandardPort("ftp:", "")).toBe(false);
  });
});
