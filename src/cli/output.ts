/**
 * How commands answer: with --json, exactly one JSON object on stdout; otherwise readable lines.
 * Failures print a message on stderr and set a non-zero exit code.
 */
export class CliError extends Error {
  override name = "CliError";
}

export function printResult(json: boolean, value: object, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human()}\n`);
}
