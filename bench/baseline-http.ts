/**
 * The HTTP half of the floor servers (bench/baseline-server.ts on SQLite,
 * bench/pg-baseline-server.ts on PostgreSQL, bench/same-writes-server.ts): read the body,
 * JSON.parse it, hand it to the server's write, answer 200 JSON. The one-insert floors answer
 * `{success, id}` (serveBaseline); the same-writes floor answers as Velvet does (serveJson).
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
  serveJson<BaselineBody>(
    port,
    (body) => {
      const id = insert(body);
      return typeof id === "number"
        ? { success: true, id }
        : id.then((n) => ({ success: true, id: n }));
    },
    close,
  );
}

/**
 * Answers 200 with what `write` returns for the parsed body: at once when it returns a value
 * (a synchronous SQLite write is answered in the same turn), when settled when it returns a
 * promise; 500 when it throws or rejects.
 */
export function serveJson<B>(
  port: number,
  write: (body: B) => object | Promise<object>,
  close: () => unknown,
): void {
  // In the server's log: a floor that fails is a floor whose figures mean nothing.
  const failed = (res: http.ServerResponse, error: unknown) => {
    process.stderr.write(
      `write failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    answer(res, 500, { error: "Internal Server Error", message: "write failed" });
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: B;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as B;
      } catch {
        answer(res, 400, { error: "Bad Request", message: "Request body is not valid JSON" });
        return;
      }
      let written: object | Promise<object>;
      try {
        written = write(body);
      } catch (error) {
        failed(res, error);
        return;
      }
      if (written instanceof Promise)
        written.then(
          (value) => answer(res, 200, value),
          (error: unknown) => failed(res, error),
        );
      else answer(res, 200, written);
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
