/**
 * Escaping HTML templates. Every page is built with the `html` tag: each interpolated value is
 * escaped for HTML text and quoted-attribute contexts unless it is already `SafeHtml` (the
 * output of another `html` template, or an explicit `trustedHtml()` for the few fixed snippets
 * such as inline SVG built from numbers). Attributes in templates must always be quoted, so the
 * one escaping rule covers both contexts. Arrays render each item with the same rules.
 */
import { escapeHtml } from "../../../lib/escape-html.js";

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue =
  | SafeHtml
  | string
  | number
  | bigint
  | boolean
  | null
  | undefined
  | ReadonlyArray<HtmlValue>;

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  // false/null/undefined render nothing, so `${cond && html`…`}` reads naturally.
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) {
    out += render(values[i]) + (strings[i + 1] ?? "");
  }
  return new SafeHtml(out);
}

/** Marks markup built by our own code from trusted parts (never from user input) as safe. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

export { escapeHtml };
