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
  // A plain timer cleared when the call ends, and a listener removed then, rather than
  // AbortSignal.timeout + AbortSignal.any: those keep a timer and two signals alive for the
  // whole timeout after the call is over, which at hundreds of calls a second piles up as
  // old-generation garbage and long GC pauses on the event loop that also serves orders.
  const controller = new AbortController();
  const combined = controller.signal;
  const deadline = setTimeout(() => {
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  deadline.unref();
  const onCallerAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onCallerAbort();
  else signal.addEventListener("abort", onCallerAbort, { once: true });
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
    clearTimeout(deadline);
    signal.removeEventListener("abort", onCallerAbort);
    combined.removeEventListener("abort", onAbort);
  }
}

/** An adapter must not throw; if one does (a bug), the error becomes a transient result. */
export async function lookupSafely(
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
