/**
 * `npm start` as the README runs it: stopping it stops the server. npm passes SIGTERM on to the
 * server (the script execs node, so no shell sits in between), and when npm is killed outright
 * the server notices it was orphaned and stops by itself.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../../test/support/job-deps.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const built = fs.existsSync(path.join(root, "dist/cli/index.js"));

describe.skipIf(!built)("npm start", { timeout: 60_000 }, () => {
  let npm: ChildProcess | undefined;
  let dir: string | undefined;
  afterEach(() => {
    if (npm?.exitCode === null && npm.signalCode === null) npm.kill("SIGKILL");
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<{ url: string }> {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-npm-start-"));
    let stderr = "";
    npm = spawn("npm", ["start", "--silent"], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: path.join(dir, "velvet.db"),
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    npm.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    await waitFor("the server to start", () => stderr.includes("Velvet is running"), 30_000);
    const url = /open (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr)?.[1];
    expect(url).toBeDefined();
    return { url: url as string };
  }

  const answers = (url: string) =>
    fetch(`${url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );

  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    it(`stops the server when npm gets ${signal}`, async () => {
      const { url } = await start();
      expect(await answers(url)).toBe(true);
      npm?.kill(signal);
      await waitFor("the server to stop", async () => !(await answers(url)), 15_000);
    });
  }
});
