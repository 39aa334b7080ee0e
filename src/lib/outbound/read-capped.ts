/**
 * Reads an answer's body up to a cap, so an outside server cannot make Velvet buffer an
 * unbounded body. Past the cap the stream is destroyed and the text is cut at the cap;
 * `truncated` says so, and the caller decides whether a cut answer is still useful (a chat
 * server's error excerpt is) or a failure (an orders page is not).
 */
export interface CappedBody {
  text: string;
  truncated: boolean;
}

export async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  maxBytes: number,
): Promise<CappedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      break;
    }
  }
  const all = Buffer.concat(chunks);
  return { text: all.subarray(0, maxBytes).toString("utf8"), truncated: all.length > maxBytes };
}
