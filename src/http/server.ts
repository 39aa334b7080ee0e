/**
 * The process side of the HTTP server: listen, and on SIGTERM/SIGINT stop accepting, finish
 * in-flight requests, then release the database.
 */
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../app-deps.js";
import { listenError } from "../lib/listen-error.js";
import { buildApp } from "./app.js";

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function startServer(
  deps: AppDeps,
  options: { port?: number; host?: string } = {},
): Promise<RunningServer> {
  const lifecycle = { shuttingDown: false };
  const app = await buildApp(deps, { lifecycle });
  const host = options.host ?? deps.config.host;
  const wanted = options.port ?? deps.config.port;
  try {
    await app.listen({ port: wanted, host });
  } catch (error) {
    await app.close();
    throw listenError(error, host, wanted, "PORT and HOST");
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : deps.config.port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    app,
    url,
    close: () => {
      // /readyz answers 503 from now on, on connections that are still open.
      lifecycle.shuttingDown = true;
      return app.close();
    },
  };
}

/** Runs until a termination signal, then shuts down in order and resolves. */
export function untilSignal(log: AppDeps["log"], stop: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, "shutting down");
      stop().then(resolve, (error) => {
        log.error({ err: error }, "error during shutdown");
        process.exitCode = 1;
        resolve();
      });
    };
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
  });
}
