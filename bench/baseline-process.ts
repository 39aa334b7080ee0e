/** Starts bench/baseline-server.ts in its own process on a free port and a fresh SQLite file. */
import path from "node:path";
import { freePort, type StartedChild, startChild, waitUntilAnswering } from "./children.js";

export interface BaselineServer {
  url: string;
  child: StartedChild;
  stop(): Promise<void>;
}

export async function startBaseline(dir: string): Promise<BaselineServer> {
  const port = await freePort();
  const child = startChild(
    process.execPath,
    ["--import", "tsx", path.resolve("bench", "baseline-server.ts")],
    {
      env: { ...process.env, PORT: String(port), DATABASE_FILE: path.join(dir, "baseline.db") },
      logFile: path.join(dir, "baseline.log"),
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(url, child);
  return { url, child, stop: () => child.stop() };
}
