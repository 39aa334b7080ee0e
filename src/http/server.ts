/**
 * The process side of the HTTP server: listen, and on SIGTERM/SIGINT stop accepting, finish
 * in-flight requests, then release the database.
 */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../deps.js";
import { buildApp } from "./app.js";

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** The server could not take its address: the process must end, loudly. */
export class ListenError extends Error {
  override name = "ListenError";
}

const LISTEN_CAUSES: Record<string, string> = {
  EADDRINUSE: "the address is already in use (another process listens there)",
  EACCES: "permission denied (ports below 1024 need privileges)",
  EADDRNOTAVAIL: "this machine has no such address",
};

/** One clear line for a failed listen, naming the address and what to change. */
export function listenErrorMessage(error: unknown, host: string, port: number): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === undefined || !(code in LISTEN_CAUSES)) return null;
  const where = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  return `cannot listen on ${where}: ${LISTEN_CAUSES[code]} (${code}); choose another with PORT and HOST`;
}

export async function startServer(
  deps: Deps,
  options: { port?: number; host?: string } = {},
): Promise<RunningServer> {
  const app = await buildApp(deps);
  const host = options.host ?? deps.config.host;
  const wanted = options.port ?? deps.config.port;
  try {
    await app.listen({ port: wanted, host });
  } catch (error) {
    await app.close();
    const message = listenErrorMessage(error, host, wanted);
    throw message === null ? error : new ListenError(message, { cause: error });
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : deps.config.port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return { app, url, close: () => app.close() };
}

/** Runs until a termination signal, then shuts down in order and resolves. */
export function untilSignal(log: Deps["log"], stop: () => Promise<void>): Promise<void> {
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
