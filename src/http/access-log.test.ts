/**
 * The access log's own line writer: byte for byte what pino writes for the same fields (scrubbed
 * by the logger's hook, silent below `info`), and pino itself for a logger it does not match.
 */
import { Writable } from "node:stream";
import { type DestinationStream, pino } from "pino";
import { describe, expect, it } from "vitest";
import { createLogger } from "../main.js";
import { type AccessLine, createAccessLogWriter } from "./access-log.js";

function capture(): { lines: string[]; stream: DestinationStream } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream: stream as unknown as DestinationStream };
}

const LINES: [string, AccessLine][] = [
  [
    "01a213d6-ef72-77d4-8ac4-9edc6f0a9e47",
    { method: "POST", route: "/api/v1/orders", path: "/api/v1/orders", status: 200, ms: 3 },
  ],
  [
    "someone@example.com",
    { method: "GET", route: "unmatched", path: '/a/"b"\\c/é/\u0007', status: 404, ms: 0 },
  ],
  [
    "req-1",
    {
      method: "GET",
      route: "/invite",
      path: `/invite/${"A".repeat(43)}`,
      status: 200,
      ms: 12,
    },
  ],
];

/** The line without its time, which differs between the two writes. */
const timeless = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe("access log writer", () => {
  it("writes what pino writes for the same request, scrubbed the same way", async () => {
    const fast = capture();
    const slow = capture();
    const write = createAccessLogWriter(createLogger({ logLevel: "info" }, fast.stream));
    const log = createLogger({ logLevel: "info" }, slow.stream);
    for (const [requestId, line] of LINES) {
      write(requestId, line);
      log.child({ requestId }).info(line, "request");
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(fast.lines).toHaveLength(LINES.length);
    expect(fast.lines.map(timeless)).toEqual(slow.lines.map(timeless));
    expect(fast.lines[1]).toContain('"requestId":"[e-mail]"');
    expect(fast.lines[2]).toContain('"path":"/invite/[token]"');
  });

  it("writes nothing below info", async () => {
    const out = capture();
    const write = createAccessLogWriter(createLogger({ logLevel: "warn" }, out.stream));
    write("req-1", LINES[0]?.[1] as AccessLine);
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.lines).toEqual([]);
  });

  it("leaves a logger it does not match to pino (here one with a mixin)", async () => {
    const out = capture();
    const log = pino({ mixin: () => ({ extra: 1 }) }, out.stream);
    createAccessLogWriter(log)("req-1", LINES[0]?.[1] as AccessLine);
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.lines).toHaveLength(1);
    expect(JSON.parse(out.lines[0] as string)).toMatchObject({ extra: 1, requestId: "req-1" });
  });
});
