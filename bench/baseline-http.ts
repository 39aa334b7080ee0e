/**
 * The HTTP half of both baseline servers (bench/baseline-server.ts on SQLite,
 * bench/pg-baseline-server.ts on PostgreSQL): read the body, JSON.parse it, hand it to `insert`
 * (which answers the new row's id, at once or as a promise), answer 200 `{success, id}` JSON.
 * Exits when the benchmark closes our stdin (even if it died by SIGKILL) or on a signal.
 */
import http from "node:http";

export interface BaselineBody {
  email?: string;
  firstName?: string;
  lastName?: string;
  order?: { id?: string; total?: string };
}

/** The row both baselines insert: email, first name, last name, order id, total, created at. */
export function baselineRow(
  body: BaselineBody,
): [string, string, string, string | null, string | null, number] {
  return [
    String(body.email),
    String(body.firstName),
    String(body.lastName),
    body.order?.id ?? null,
    body.order?.total ?? null,
    Date.now(),
  ];
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

export function serveBaseline(
  port: number,
  insert: (body: BaselineBody) => number | Promise<number>,
  close: () => unknown,
): void {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: BaselineBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as BaselineBody;
      } catch {
        answer(res, 400, { error: "Bad Request", message: "Request body is not valid JSON" });
        return;
      }
      const id = insert(body);
      // The SQLite insert is synchronous: answered in the same turn, as before.
      if (typeof id === "number") answer(res, 200, { success: true, id });
      else
        id.then(
          (n) => answer(res, 200, { success: true, id: n }),
          () => answer(res, 500, { error: "Internal Server Error", message: "insert failed" }),
        );
    });
  });
  server.keepAliveTimeout = 72_000;
  server.listen(port, "127.0.0.1", () => process.stdout.write(`baseline listening on ${port}\n`));

  const shutdown = (): void => {
    server.close(() => {
      Promise.resolve(close()).finally(() => process.exit(0));
    });
    server.closeAllConnections();
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
  process.stdin.on("end", shutdown);
  process.stdin.resume();
}
