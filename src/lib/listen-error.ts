/**
 * A listener could not take its address (the HTTP server, the metrics listener): the process
 * must end, loudly, with one line that names the address and what to change.
 */
export class ListenError extends Error {
  override name = "ListenError";
}

const LISTEN_CAUSES: Record<string, string> = {
  EADDRINUSE: "the address is already in use (another process listens there)",
  EACCES: "permission denied (ports below 1024 need privileges)",
  EADDRNOTAVAIL: "this machine has no such address",
};

/** The error to throw for a failed listen: a ListenError when the cause is known. */
export function listenError(error: unknown, host: string, port: number, setting: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === undefined || !(code in LISTEN_CAUSES)) return error;
  const where = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  return new ListenError(
    `cannot listen on ${where}: ${LISTEN_CAUSES[code]} (${code}); choose another with ${setting}`,
    { cause: error },
  );
}
