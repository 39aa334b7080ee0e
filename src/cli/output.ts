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

/**
 * What an irreversible command would do, printed instead of doing it when --yes is missing:
 * `{"dryRun": true, …}` with --json, otherwise the description and how to go ahead.
 */
export function printDryRun(json: boolean, value: object, wouldDo: string, goAhead: string): void {
  printResult(json, { dryRun: true, ...value }, () =>
    [`Dry run: nothing was changed. ${wouldDo}`, `Run again with --yes to ${goAhead}.`].join("\n"),
  );
}
