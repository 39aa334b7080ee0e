/**
 * Which customers and orders of the file were seen already, kept in a temporary SQLite file
 * (deleted when closed) rather than in a JavaScript Set: a store's history can hold millions of
 * customers, and the import's memory must not grow with the file. SQLite keeps a small page
 * cache and the rest on disk.
 */
import Database from "better-sqlite3";

export interface SeenKeys {
  /** True the first time this key is added to this kind. */
  add(kind: "customer" | "order", key: string): boolean;
  close(): void;
}

export function openSeenKeys(): SeenKeys {
  // An empty file name: SQLite's private temporary database, removed on close.
  const db = new Database("");
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -2000");
  db.exec(
    "CREATE TABLE seen (kind INTEGER NOT NULL, key TEXT NOT NULL, PRIMARY KEY (kind, key)) WITHOUT ROWID",
  );
  const insert = db.prepare("INSERT OR IGNORE INTO seen (kind, key) VALUES (?, ?)");
  return {
    add: (kind, key) => insert.run(kind === "customer" ? 0 : 1, key).changes === 1,
    close: () => db.close(),
  };
}
