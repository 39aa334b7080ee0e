/**
 * Shopify's calculated query cost, as the Admin API documents it (shopify.dev, "GraphQL Admin
 * API rate limits › Cost calculation"): a scalar or enum field costs 0, an object 1, and a
 * connection (a field taking `first`/`last`) 2 plus, for each of the `first` objects it may
 * return, the cost of one of them (its `node` and everything selected under it). `edges`,
 * `cursor` and `pageInfo` are the connection's own and add nothing. The requested cost counts
 * `first` objects; the actual cost counts the objects returned.
 */
interface Field {
  name: string;
  args: string;
  children: Field[] | null;
}

/**
 * The `errors` of a request the cost bucket cannot pay for, as Shopify answers it (a 200):
 * https://shopify.dev/docs/api/usage/rate-limits#graphql-admin-api-rate-limits.
 */
export const THROTTLED_ERRORS = [
  {
    message: "Throttled",
    extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
  },
];

export function parseSelection(query: string): Field[] {
  const text = query.replace(/#[^\n]*/g, "");
  let i = text.indexOf("{");
  const read = (): Field[] => {
    const fields: Field[] = [];
    i += 1; // past "{"
    for (;;) {
      while (i < text.length && /[\s,]/.test(text[i] as string)) i++;
      if (i >= text.length || text[i] === "}") {
        i += 1;
        return fields;
      }
      const name = /^[A-Za-z_][A-Za-z0-9_]*(\s*:\s*[A-Za-z_][A-Za-z0-9_]*)?/.exec(text.slice(i));
      if (!name) throw new Error(`cannot read the query at ${i}`);
      i += name[0].length;
      while (/\s/.test(text[i] ?? "")) i++;
      let args = "";
      if (text[i] === "(") {
        const end = text.indexOf(")", i);
        args = text.slice(i + 1, end);
        i = end + 1;
        while (/\s/.test(text[i] ?? "")) i++;
      }
      const fieldName = (name[0].split(":").at(-1) ?? "").trim();
      fields.push({ name: fieldName, args, children: text[i] === "{" ? read() : null });
    }
  };
  return read();
}

/** The size a connection asks for: its `first`/`last`, literal or a variable. */
function sizeOf(args: string, variables: Record<string, unknown>): number | null {
  const m = /\b(first|last)\s*:\s*(\$?\w+)/.exec(args);
  if (!m) return null;
  const value = m[2] as string;
  return value.startsWith("$") ? Number(variables[value.slice(1)] ?? 0) : Number(value);
}

function costOf(
  fields: Field[],
  variables: Record<string, unknown>,
  returned: number | null,
): number {
  let total = 0;
  for (const f of fields) {
    if (f.children === null || f.name === "pageInfo") continue;
    const size = sizeOf(f.args, variables);
    if (size !== null) {
      const edges = f.children.find((c) => c.name === "edges")?.children ?? [];
      const node =
        edges.find((c) => c.name === "node") ?? f.children.find((c) => c.name === "nodes");
      const perObject = node?.children ? 1 + costOf(node.children, variables, null) : 1;
      total += 2 + (returned ?? size) * perObject;
    } else {
      total += 1 + costOf(f.children, variables, returned);
    }
  }
  return total;
}

/** The requested cost, or the actual one when `returned` objects came back from the connection. */
export function queryCost(
  query: string,
  variables: Record<string, unknown>,
  returned: number | null = null,
): number {
  return costOf(parseSelection(query), variables, returned);
}
