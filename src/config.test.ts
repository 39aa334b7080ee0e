import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  databaseTargetFromUrl,
  loadConfig,
  type PostgresTarget,
  postgresSessionRules,
  sessionUrl,
} from "./config.js";

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      database: { kind: "sqlite", file: path.resolve("data", "velvet.db") },
      enrichmentPriceUsd: "0.05",
      logLevel: "info",
      publicBaseUrl: "http://127.0.0.1:3000",
    });
  });

  it("reads the settings it is given", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgresql://velvet@db:5432/velvet",
      ENRICHMENT_PRICE_USD: "0.03",
      LOG_LEVEL: "debug",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      database: { kind: "postgres", url: "postgresql://velvet@db:5432/velvet", poolMax: 10 },
      enrichmentPriceUsd: "0.03",
      logLevel: "debug",
      publicBaseUrl: "http://localhost:8080",
    });
  });

  it("treats an empty variable as unset", () => {
    const config = loadConfig({
      PORT: "",
      ENRICHMENT_PRICE_USD: "",
      SMTP_URL: "",
      WORKER_ENABLED: "",
    });
    expect(config.port).toBe(3000);
    expect(config.enrichmentPriceUsd).toBe("0.05");
    expect(config.alerts.smtpUrl).toBeNull();
    expect(config.worker.enabled).toBe(true);
  });

  it.each([["abc"], ["70000"], ["-1"], ["80.5"]])("refuses PORT=%s, naming it", (port) => {
    expect(configError({ PORT: port }).message).toMatch(/^Invalid configuration:\n {2}PORT: /);
  });

  it.each([["abc"], ["-0.05"], ["0.0000001"], ["1,5"], ["$0.05"]])(
    "refuses ENRICHMENT_PRICE_USD=%s, naming it",
    (price) => {
      expect(configError({ ENRICHMENT_PRICE_USD: price }).message).toMatch(
        /ENRICHMENT_PRICE_USD: must be a non-negative decimal/,
      );
    },
  );

  it("refuses a bad LOG_LEVEL, naming it", () => {
    expect(configError({ LOG_LEVEL: "loud" }).message).toMatch(/LOG_LEVEL: /);
  });

  it.each([["mysql://u:secret@host/db"], ["http://example.com/db"], ["sqlite://velvet.db"]])(
    "refuses DATABASE_URL=%s without echoing it whole",
    (url) => {
      const { message } = configError({ DATABASE_URL: url });
      expect(message).toMatch(/^DATABASE_URL: unsupported scheme/);
      expect(message).not.toContain("secret");
    },
  );
});

describe("databaseTargetFromUrl", () => {
  it("maps unset, paths, file: URLs and postgres URLs", () => {
    expect(databaseTargetFromUrl(undefined)).toEqual({
      kind: "sqlite",
      file: path.resolve("data", "velvet.db"),
    });
    expect(databaseTargetFromUrl("  ")).toMatchObject({ kind: "sqlite" });
    expect(databaseTargetFromUrl("tmp/v.db")).toEqual({
      kind: "sqlite",
      file: path.resolve("tmp/v.db"),
    });
    expect(databaseTargetFromUrl("/var/lib/velvet.db")).toEqual({
      kind: "sqlite",
      file: "/var/lib/velvet.db",
    });
    expect(databaseTargetFromUrl("file:///var/lib/v.db")).toEqual({
      kind: "sqlite",
      file: "/var/lib/v.db",
    });
    expect(databaseTargetFromUrl(":memory:")).toEqual({ kind: "sqlite", file: ":memory:" });
    expect(databaseTargetFromUrl("postgres://u@h/d", 5)).toEqual({
      kind: "postgres",
      url: "postgres://u@h/d",
      poolMax: 5,
    });
  });

  it("reads the pooler settings: session and prepared statements unless told otherwise", () => {
    const pg = (env: Record<string, string>) =>
      loadConfig({ DATABASE_URL: "postgres://u@pooler:6432/d", ...env }).database as PostgresTarget;
    expect(postgresSessionRules(pg({}))).toEqual({
      poolerMode: "session",
      preparedStatements: true,
    });
    expect(sessionUrl(pg({}))).toBe("postgres://u@pooler:6432/d");
    const pooled = pg({ DATABASE_POOLER_MODE: "transaction" });
    expect(postgresSessionRules(pooled)).toEqual({
      poolerMode: "transaction",
      preparedStatements: false,
    });
    // Behind a transaction pooler nothing can LISTEN, unless given a direct connection.
    expect(sessionUrl(pooled)).toBeNull();
    const direct = pg({
      DATABASE_POOLER_MODE: "transaction",
      DATABASE_PREPARED_STATEMENTS: "on",
      DATABASE_DIRECT_URL: "postgres://u@db:5432/d",
    });
    expect(postgresSessionRules(direct)).toEqual({
      poolerMode: "transaction",
      preparedStatements: true,
    });
    expect(sessionUrl(direct)).toBe("postgres://u@db:5432/d");
    expect(postgresSessionRules(pg({ DATABASE_PREPARED_STATEMENTS: "off" }))).toEqual({
      poolerMode: "session",
      preparedStatements: false,
    });
  });

  it("refuses pooler settings that are wrong or without PostgreSQL, naming them", () => {
    expect(configError({ DATABASE_POOLER_MODE: "statement" }).message).toMatch(
      /DATABASE_POOLER_MODE: /,
    );
    expect(
      configError({ DATABASE_URL: "postgres://u@h/d", DATABASE_PREPARED_STATEMENTS: "maybe" })
        .message,
    ).toMatch(/DATABASE_PREPARED_STATEMENTS: /);
    expect(
      configError({ DATABASE_URL: "postgres://u@h/d", DATABASE_DIRECT_URL: "mysql://h/d" }).message,
    ).toBe("DATABASE_DIRECT_URL: must be a postgres:// URL");
    expect(configError({ DATABASE_POOLER_MODE: "transaction" }).message).toBe(
      "DATABASE_POOLER_MODE: only for PostgreSQL, but DATABASE_URL does not name a postgres:// database",
    );
  });

  it("takes TRUST_PROXY as a hop count or addresses and CIDRs, and refuses true", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.5,::1" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "192.168.1.5",
      "::1",
    ]);
    const refused = configError({ TRUST_PROXY: "true" }).message;
    expect(refused).toContain("TRUST_PROXY=true would trust every X-Forwarded-For entry");
    expect(refused).toContain("TRUST_PROXY=1");
    expect(refused).toContain("TRUST_PROXY=10.0.0.0/8,192.168.1.5");
    for (const bad of ["10.0.0.0/33", "proxy.local", "1.2.3.4/8/1", "99"])
      expect(configError({ TRUST_PROXY: bad }).message).toMatch(/^TRUST_PROXY: /);
  });

  it("reads SIGNUP: first account only by default, closed, or open with SMTP_URL only", () => {
    expect(loadConfig({}).signup).toBe("first-account");
    expect(loadConfig({ SIGNUP: "closed" }).signup).toBe("closed");
    expect(loadConfig({ SIGNUP: "open", SMTP_URL: "smtp://mail.example.com" }).signup).toBe("open");
    expect(configError({ SIGNUP: "open" }).message).toContain("SIGNUP=open needs SMTP_URL");
    expect(configError({ SIGNUP: "maybe" }).message).toMatch(/SIGNUP: /);
  });
});
