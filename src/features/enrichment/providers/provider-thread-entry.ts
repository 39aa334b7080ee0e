/**
 * The provider thread's program (see provider-thread.ts): builds the configured providers, each
 * behind its limits and circuit breaker, and answers lookups posted by the main thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createProviders } from "./create-providers.js";
import type { ProviderName } from "./provider.js";
import type { FromThread, ProviderThreadData, ToThread } from "./provider-thread-messages.js";

const port = parentPort;
if (port === null) throw new Error("provider-thread-entry runs only as a worker thread");
const data = workerData as ProviderThreadData;

const post = (message: FromThread) => port.postMessage(message);
const providers = new Map(
  createProviders(data.enrichment, {
    log: {
      info: (details, message) => post({ type: "log", level: "info", details, message }),
      warn: (details, message) => post({ type: "log", level: "warn", details, message }),
    },
  }).map((p) => [p.name, p] as const),
);
const inFlight = new Map<number, AbortController>();

port.on("message", (message: ToThread) => {
  if (message.type === "abort") {
    inFlight.get(message.id)?.abort(new Error("aborted by the caller"));
    return;
  }
  void lookup(message.id, message.provider, message.query);
});

async function lookup(
  id: number,
  name: ProviderName,
  query: Extract<ToThread, { type: "lookup" }>["query"],
): Promise<void> {
  const provider = providers.get(name);
  if (provider === undefined) {
    const error = `provider ${name} is not configured in the provider thread`;
    post({
      type: "result",
      id,
      result: { kind: "permanent", provider: name, httpStatus: null, error },
    });
    return;
  }
  const controller = new AbortController();
  inFlight.set(id, controller);
  try {
    const result = await provider.lookup(query, controller.signal);
    const raw = "raw" in result ? result.raw : undefined;
    post({
      type: "result",
      id,
      result:
        raw === undefined ? result : { ...result, raw: undefined, rawJson: JSON.stringify(raw) },
    });
  } catch (error) {
    // The wrapper turns failures into values; this is a bug, reported as a transient failure.
    const text = error instanceof Error ? error.message : String(error);
    post({
      type: "result",
      id,
      result: { kind: "transient", provider: name, httpStatus: null, error: `unexpected: ${text}` },
    });
  } finally {
    inFlight.delete(id);
  }
}
