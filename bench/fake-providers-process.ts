/**
 * Starts bench/fake-providers-server.ts in its own process and reads back the environment it
 * prints (its stdout goes to a log file, like every benchmark child: see children.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { type StartedChild, startChild, tail } from "./children.js";

export interface FakeProvidersProcess {
  /** PDL_API_KEY, PDL_BASE_URL, … GRAVATAR_ENABLED, GRAVATAR_BASE_URL. */
  env: Record<string, string>;
  child: StartedChild;
  stop(): Promise<void>;
}

/** `delay` is "0" for instant answers or "min-max" in ms, e.g. "2000-5000". */
export async function startFakeProvidersProcess(
  dir: string,
  delay: string,
): Promise<FakeProvidersProcess> {
  const logFile = path.join(dir, "fake-providers.log");
  const child = startChild(
    process.execPath,
    ["--import", "tsx", path.resolve("bench", "fake-providers-server.ts")],
    { env: { ...process.env, BENCH_FAKE_DELAY_MS: delay }, logFile },
  );
  const env = await readEnvLine(logFile, child);
  return { env, child, stop: () => child.stop() };
}

/** The first JSON line a fake's process printed (fake-shopify-process.ts reads its own so). */
export async function readEnvLine(
  logFile: string,
  child: StartedChild,
  timeoutMs = 20_000,
): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) break;
    const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "";
    const line = text.split("\n").find((l) => l.startsWith("{") && l.endsWith("}"));
    if (line !== undefined) return JSON.parse(line) as Record<string, string>;
    await new Promise((r) => setTimeout(r, 50));
  }
  await child.stop();
  throw new Error(`the fake did not start; last lines of ${logFile}:\n${tail(logFile)}`);
}
