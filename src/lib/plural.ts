/** "1 enrichment", "2 enrichments", "1,204 customers": a count with the right noun form. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? singular : pluralForm}`;
}
