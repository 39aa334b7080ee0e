/**
 * The layers of src/, lowest first; an import may only point down (README, "How the code is laid
 * out"). Tests may reach anything; the rules read production files only.
 *
 *   lib → config → db → jobs → features → http → cli → main.ts
 */
const PROD = "^src/.*(?<!\\.test)\\.ts$";

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
      "config.ts reads the environment; it needs lib/ at most.",
      "^src/config\\.ts$",
      "^src/(db|jobs|features|http|cli)/|^src/(main|deps|tasks)\\.ts$",
    ),
    forbid(
      "db-below-jobs",
      "db/ knows tables and drivers, not jobs, features or transports.",
      "^src/db/",
      "^src/(jobs|features|http|cli)/|^src/(main|deps|tasks)\\.ts$",
    ),
    forbid(
      "jobs-below-features",
      "The job queue runs tasks it is given; it names no feature.",
      "^src/jobs/",
      "^src/(features|http|cli)/|^src/(main|deps|tasks)\\.ts$",
    ),
    forbid(
      "features-below-transports",
      "A feature never imports http/, cli/ or the composition root; main.ts hands it what it needs.",
      "^src/features/",
      "^src/(http|cli)/|^src/(main|tasks)\\.ts$",
    ),
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
