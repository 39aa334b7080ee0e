/**
 * What a benchmark phase is: a named piece of `npm run bench` that starts its own servers,
 * drives them, stops them, and reports a markdown table, targets met or missed, and raw numbers
 * (written to bench/results/<name>.json). `run.ts` runs the phases in order; a new benchmark
 * (e.g. enrichment throughput) is a new file exporting a Phase, added to the list there.
 */
export interface BenchSettings {
  connections: number;
  durationSec: number;
  warmupSec: number;
}

export interface PhaseContext {
  settings: BenchSettings;
  /** A fresh temporary directory for this phase's databases and logs. */
  dir: string;
  log(message: string): void;
}

export interface Target {
  name: string;
  pass: boolean;
  detail: string;
}

export interface PhaseReport {
  /** Markdown, ready for the README. */
  table: string;
  /**
   * How long each run measured, when the phase times its runs itself (else the settings'); null
   * for a phase whose cases are not timed runs under load.
   */
  timing?: { durationSec: number; warmupSec: number } | null;
  targets: Target[];
  raw: unknown;
}

export interface Phase {
  name: string;
  title: string;
  /** Upper bound on the phase's wall time, for the run's watchdog. */
  budgetSec(settings: BenchSettings): number;
  run(context: PhaseContext): Promise<PhaseReport>;
}
