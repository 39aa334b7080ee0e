/** A short, single-line, printable excerpt of a server's answer, for `last_error` and logs. */
export function excerpt(text: string, max = 200): string {
  // Control characters (CR, LF, ESC…) become spaces: one line, safe in logs and terminals.
  const line = Array.from(text, (ch) => (ch < " " || ch === "\u007f" ? " " : ch))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}
