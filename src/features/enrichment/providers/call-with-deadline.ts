/**
 * One adapter call under a deadline joined to the caller's signal. The deadline holds even for
 * an adapter that ignores its signal (the race below), a thrown error becomes a value, and the
 * result names which signal ended the call: the caller's (`aborted`, which says nothing about
 * the provider) or ours (`timeout`, which counts against it).
 */
import type { EnrichmentProvider, ProviderQuery, ProviderResult } from "./provider.js";

export async function callWithDeadline(
  inner: EnrichmentProvider,
  query: ProviderQuery,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ProviderResult> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const combined = AbortSignal.any([signal, deadline]);
  const provider = inner.name;
  const ended = (): ProviderResult =>
    signal.aborted
      ? {
          kind: "transient",
          provider,
          httpStatus: null,
          error: "aborted by the caller",
          cause: "aborted",
        }
      : {
          kind: "transient",
          provider,
          httpStatus: null,
          error: `timed out after ${timeoutMs} ms`,
          cause: "timeout",
        };

  let onAbort = () => {};
  const abortedFirst = new Promise<ProviderResult>((resolve) => {
    onAbort = () => resolve(ended());
    combined.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const result = await Promise.race([lookupSafely(inner, query, combined), abortedFirst]);
    // An adapter reports "timed out" or "aborted" without knowing whose signal fired.
    const endedBySignal =
      result.kind === "transient" &&
      result.httpStatus === null &&
      (result.cause === "timeout" || result.cause === "aborted");
    return endedBySignal && combined.aborted ? ended() : result;
  } finally {
    combined.removeEventListener("abort", onAbort);
  }
}

async function lookupSafely(
  inner: EnrichmentProvider,
  query: ProviderQuery,
  signal: AbortSignal,
): Promise<ProviderResult> {
  try {
    return await inner.lookup(query, signal);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      kind: "transient",
      provider: inner.name,
      httpStatus: null,
      error: `adapter error: ${message}`,
    };
  }
}
