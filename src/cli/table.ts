/** A plain-text table for a terminal: a header row in capitals, columns padded to fit. */
export function renderTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const all = [headers.map((h) => h.toUpperCase()), ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  return all
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
