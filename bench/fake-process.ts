/**
 * The life of a fake service run as a process of its own by the benchmark: it stops on SIGTERM,
 * SIGINT, or when the benchmark that holds its stdin open goes away (even killed with SIGKILL),
 * saying on stderr what it answered, then closing its servers.
 */
export function runUntilParentGoes(fake: { report(): string; close(): Promise<void> }): void {
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    process.stderr.write(`${fake.report()}\n`);
    fake.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  process.stdin.on("end", shutdown);
  process.stdin.resume();
}
