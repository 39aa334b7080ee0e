/**
 * The layers of src/, lowest first; an import may only point down (README, "How the code is laid
 * out"). Tests may reach anything; the rules read production files only.
 *
 *   lib → config → db → jobs → deps.ts → features (in FEATURE_ORDER) → app-deps.ts, http
 *   → cli → tasks.ts, main.ts
 *
 * One part of a feature sits below config.ts: the enrichment providers' registry and the
 * providers it lists (features/enrichment/providers/), because config.ts reads the variables
 * each provider declares; they reach nothing above lib/ (providers-below-config).
 */
const fs = require("node:fs");
const path = require("node:path");

const PROD = "^src/.*(?<!\\.test)\\.ts$";

/**
 * The feature folders, lowest first: a feature may import only the features listed before it.
 * A new folder under src/features/ must be added here (lint fails until it is), at the place its
 * imports allow: after everything it uses, before everything that uses it.
 */
const FEATURE_ORDER = [
  "metrics", // counters every other feature may bump
  "audit", // the audit trail other features write to
  "billing",
  "zip-income",
  "exchange-rates", // the ECB euro reference rates that put other currencies on the dollar bands
  "health",
  "security", // one-time tokens, attempt throttles
  "api-keys", // which store a key acts for
  "shared-limits", // budgets every process shares through the database (slots, window leases)
  "rate-limits",
  "enrichment", // look up, score, decide; raises "customer enriched" and "VIP found" (deps.events)
  "orders",
  "customers",
  "verdicts", // merchants' verdicts on VIPs, the signed links alerts carry, precision
  "alerts",
  "accounts",
  "team", // members, roles, invitations, password change and reset
  "order-import",
  "store-sync", // pulls Shopify and WooCommerce orders through orders/
  "store-webhooks", // the same orders pushed by the stores, verified, through store-sync's write path
  "privacy", // erasure and export over the registry each feature fills (privacy-registry.ts)
  "destinations", // signed webhooks and CRM profiles that receive the customer events
  "demo", // sample store history through order-import, removed as privacy erases
  "dashboard", // the web UI over all of the above
];

const featureDirs = fs
  .readdirSync(path.join(__dirname, "src/features"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const unplaced = featureDirs.filter((d) => !FEATURE_ORDER.includes(d));
if (unplaced.length > 0) {
  throw new Error(
    `.dependency-cruiser.cjs: add src/features/${unplaced.join(", src/features/")} to FEATURE_ORDER`,
  );
}
const asPattern = (name) => name.replace(/[-]/g, "\\-");

/** A rule: files under `from` may not import files matching `to`. */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: "error",
  from: { path: from, pathNot: "\\.test\\.ts$" },
  to: { path: to },
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A cycle makes two modules one; break it by moving the shared part down.",
      severity: "error",
      from: { path: PROD },
      to: { circular: true, pathNot: "\\.test\\.ts$" },
    },
    forbid(
      "lib-is-the-floor",
      "lib/ imports nothing else of Velvet.",
      "^src/lib/",
      "^src/(?!lib/)",
    ),
    forbid(
      "config-above-lib-only",
      "config.ts reads the environment; it needs lib/ and the enrichment providers' declarations (whose variables it reads) at most.",
      "^src/config\\.ts$",
      "^src/(db|jobs|http|cli)/|^src/features/(?!enrichment/providers/provider-settings\\.ts$)|^src/(main|deps|app-deps|tasks)\\.ts$",
    ),
    {
      name: "providers-below-config",
      comment:
        "What config.ts reaches (the provider registry, each provider's declaration and adapter) stays in lib/ and features/enrichment/providers/: a provider is a client of an outside service, nothing more.",
      severity: "error",
      from: { path: "^src/config\\.ts$" },
      to: {
        path: "^src/(db|jobs|http|cli)/|^src/features/(?!enrichment/providers/)|^src/(main|deps|app-deps|tasks)\\.ts$",
        pathNot: "\\.test\\.ts$",
        reachable: true,
      },
    },
    forbid(
      "db-below-jobs",
      "db/ knows tables and drivers, not jobs, features or transports.",
      "^src/db/",
      "^src/(jobs|features|http|cli)/|^src/(main|deps|app-deps|tasks)\\.ts$",
    ),
    forbid(
      "jobs-below-features",
      "The job queue runs tasks it is given (task.ts: WorkerDeps); it names no feature.",
      "^src/jobs/",
      "^src/(features|http|cli)/|^src/(main|deps|app-deps|tasks)\\.ts$",
    ),
    forbid(
      "deps-names-no-feature",
      "deps.ts holds what every feature may use; a feature's own needs are declared in the feature.",
      "^src/deps\\.ts$",
      "^src/(features|http|cli)/|^src/(main|app-deps|tasks)\\.ts$",
    ),
    forbid(
      "features-below-transports",
      "A feature never imports http/, cli/ or the composition root; main.ts hands it what it needs.",
      "^src/features/",
      "^src/(http|cli)/|^src/(main|app-deps|tasks)\\.ts$",
    ),
    ...FEATURE_ORDER.map((feature, i) => {
      const allowed = FEATURE_ORDER.slice(0, i + 1)
        .map(asPattern)
        .join("|");
      return forbid(
        `feature-order-${feature}`,
        `${feature} may import only the features before it in FEATURE_ORDER (.dependency-cruiser.cjs).`,
        `^src/features/${asPattern(feature)}/`,
        `^src/features/(?!(${allowed})/)`,
      );
    }),
    forbid(
      "http-below-cli",
      "http/ serves; the CLI starts it, not the reverse.",
      "^src/http/",
      "^src/cli/|^src/main\\.ts$",
    ),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(dist|node_modules)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs"] },
  },
};
