/**
 * The configured providers, run on a thread of their own. At 100+ new customers a second with
 * providers answering in 2–5 s, about two thousand lookups are in flight at once; their sockets,
 * parsers, timers and buffers live for seconds, and on the event loop that serves orders they
 * filled the old generation fast enough for a full garbage collection every few seconds, each
 * stalling order intake for 50–80 ms. Here they live on the thread's own heap, collected without
 * stopping the main loop; the main thread keeps only a promise per lookup.
 *
 * Everything about a provider stays in the thread: adapters, timeout, concurrency cap, rate limit
 * and circuit breaker (create-providers.ts), so the thread is the one place that knows a
 * provider's health. The main thread sees ordinary `EnrichmentProvider`s: a lookup posts the
 * query, the caller's signal posts an abort, and the result comes back as the same value the
 * adapter returned. Storing results stays on the main thread, with the database.
 *
 * The thread starts on the first lookup (a CLI command never starts it) and does not keep the
 * process alive while idle. If it dies, the lookups it held come back `transient` (the job is
 * retried like after any provider failure) and the next lookup starts a new one.
 */
import type { Worker } from "node:worker_threads";
import type { Config } from "../../../config.js";
import { createBackgroundPacer } from "../../../lib/background-pacer.js";
import { startThread } from "../../../lib/start-thread.js";
import { configuredProviderNames } from "./create-providers.js";
import type {
  EnrichmentProvider,
  ProviderName,
  ProviderQuery,
  ProviderResult,
} from "./provider.js";
import type { FromThread, ProviderThreadData, ToThread } from "./provider-thread-messages.js";
import type { ProviderLog } from "./resilient-provider.js";

export interface ThreadedProviders {
  providers: EnrichmentProvider[];
  /** Stops the thread; lookups still in flight come back `aborted`. */
  close(): Promise<void>;
}

export interface ProviderThreadLog extends ProviderLog {
  error(details: object, message: string): void;
}

interface Pending {
  provider: ProviderName;
  resolve(result: ProviderResult): void;
}

export function createThreadedProviders(
  settings: Config["enrichment"],
  log: ProviderThreadLog,
): ThreadedProviders {
  const names = configuredProviderNames(settings);
  const pending = new Map<number, Pending>();
  let worker: Worker | null = null;
  let nextId = 1;
  let closed = false;
  const pacer = createBackgroundPacer();

  const endAll = (result: (provider: ProviderName) => ProviderResult) => {
    for (const [id, entry] of pending) {
      pending.delete(id);
      entry.resolve(result(entry.provider));
    }
  };

  function start(): Worker {
    const data: ProviderThreadData = { enrichment: settings };
    const thread = startThread(new URL("./provider-thread-entry.js", import.meta.url), {
      workerData: data,
    });
    thread.unref();
    thread.on("message", (message: FromThread) => {
      if (message.type === "log") {
        log[message.level](message.details, message.message);
        return;
      }
      const entry = pending.get(message.id);
      if (entry === undefined) return;
      pending.delete(message.id);
      if (pending.size === 0) thread.unref();
      // What a result sets off (storing it, scoring) yields to order requests between results.
      pacer.run(() => entry.resolve(message.result));
    });
    thread.on("error", (error) => log.error({ err: error }, "provider thread failed"));
    thread.on("exit", (code) => {
      if (worker === thread) worker = null;
      if (closed) return;
      log.error({ code }, "provider thread stopped; the next lookup starts a new one");
      endAll((provider) => ({
        kind: "transient",
        provider,
        httpStatus: null,
        error: `provider thread stopped (exit code ${code})`,
        cause: "network",
      }));
    });
    return thread;
  }

  function lookup(
    provider: ProviderName,
    query: ProviderQuery,
    signal: AbortSignal,
  ): Promise<ProviderResult> {
    if (closed || signal.aborted) return Promise.resolve(aborted(provider));
    worker ??= start();
    const thread = worker;
    const id = nextId++;
    return new Promise<ProviderResult>((resolve) => {
      const onAbort = () => post(thread, { type: "abort", id });
      signal.addEventListener("abort", onAbort, { once: true });
      if (pending.size === 0) thread.ref();
      pending.set(id, {
        provider,
        resolve: (result) => {
          signal.removeEventListener("abort", onAbort);
          resolve(result);
        },
      });
      post(thread, { type: "lookup", id, provider, query });
    });
  }

  return {
    providers: names.map((name) => ({
      name,
      lookup: (query, signal) => lookup(name, query, signal),
    })),
    async close() {
      closed = true;
      endAll(aborted);
      const thread = worker;
      worker = null;
      await thread?.terminate();
    },
  };
}

function post(thread: Worker, message: ToThread): void {
  thread.postMessage(message);
}

function aborted(provider: ProviderName): ProviderResult {
  return {
    kind: "transient",
    provider,
    httpStatus: null,
    error: "aborted by the caller",
    cause: "aborted",
  };
}
