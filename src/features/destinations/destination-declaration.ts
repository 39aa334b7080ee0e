/**
 * What a destination kind declares about itself, so that adding one is derived, not written per
 * kind: the dashboard's add form and its route, `velvet destination add <kind>` and its options,
 * the kind's label in lists. A driver (destination-driver.ts) carries its declaration; the kinds
 * are registered in destination-kinds.ts.
 *
 * Input fields reach the driver's `prepare` as strings under their `name`, from a form field of
 * that name or from the CLI option `--<flag>` (default: the name in kebab case).
 */
import type { DestinationEvent, DestinationKind, StorePlatform } from "../../db/schema.js";

interface FieldBase {
  /** The key in the driver's input and the form field's name. */
  name: string;
  /** The form's label. */
  label: string;
  /** The CLI option's description. */
  cliHelp: string;
  /** The CLI option's value name (`<url>`, `<key>`). */
  cliValue: string;
  /** The CLI flag without `--`, when not the name in kebab case. */
  flag?: string;
  /** What is used when nothing is given (both the form's initial value and the CLI default). */
  default?: string;
  placeholder?: string;
  /** Help under the form field. */
  formHelp?: string;
}

export type DestinationField = FieldBase &
  (
    | { type: "text" | "url" }
    /** Never shown again, nor kept in a refused form: a password field. */
    | { type: "secret" }
    /** One of the account's connected stores of this platform (a select; its id on the CLI). */
    | { type: "store"; platform: StorePlatform; platformLabel: string }
  );

export interface DestinationDeclaration {
  kind: DestinationKind;
  /** How people call it in lists ("Signed webhook"). */
  label: string;
  /** `velvet destination add <kind> --help`. */
  summary: string;
  /** Events this kind can take (and the default when none are named). */
  events: readonly DestinationEvent[];
  fields: readonly DestinationField[];
  /** The dashboard's add form: its title, what it does (`code` and **strong** marked), its button. */
  form: {
    title: string;
    intro: string;
    submit: string;
    /** Whether the form offers the events as checkboxes (else the kind's default events). */
    chooseEvents: boolean;
  };
  /**
   * What `prepare` reveals once (a webhook's signing secret), shown on the form's answer and
   * printed by the CLI, never again; `targetName` names the target in the CLI's JSON.
   */
  reveals?: { name: string; label: string; keep: string; targetName: string };
  /**
   * For a kind that calls a platform at an address of its own: the variable naming the address
   * (`<KIND>_BASE_URL`, so tests can point it at a fake) and the platform's address as its
   * default. The driver is built with it (platform-address.ts); a bad URL stops the start,
   * naming the variable.
   */
  baseUrl?: { env: string; default: string };
}

/** The CLI flag of a field: `--api-key` for `apiKey`, unless the field names its own. */
export function flagOf(field: DestinationField): string {
  return field.flag ?? field.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The camel-case key commander gives a flag's value (`api-key` → `apiKey`). */
export function optionKeyOf(field: DestinationField): string {
  return flagOf(field).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}
