/**
 * The one HTTP caching and content-coding negotiation: `If-None-Match` against a resource's tags and the choice of
 * `Content-Encoding` from `Accept-Encoding`. Used by the corpus service (`/mapper`, `/mapper/version`,
 * `/mapper/diagnostics`) and the catalog handler, so both answer a weak tag, a list or `*` the same way.
 *
 * @module
 */

/** The content codings a server may offer, in the order preferred when the client weighs them equally. */
export type Coding = "br" | "gzip";

/**
 * Whether an `If-None-Match` header matches one of `tags` (RFC 9110 weak comparison: `W/"x"` matches `"x"`): any
 * tag of the comma-separated list, or `*`. A missing header never matches.
 */
export function ifNoneMatchHits(header: string | null, tags: readonly string[]): boolean {
  if (!header) return false;
  return header.split(",").some((raw) => {
    const tag = raw.trim().replace(/^W\//, "");
    return tag === "*" || tags.includes(tag);
  });
}

/**
 * Chooses the coding to send from `Accept-Encoding`, among `offered` (preferred first on equal weight), or
 * `undefined` for identity. A q-value of 0 refuses a coding; `*` weighs every coding not named; `x-gzip` counts as
 * `gzip`.
 */
export function chooseEncoding(header: string | null, offered: readonly Coding[] = ["br", "gzip"]): Coding | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const star = q.get("*");
  const weight = (c: Coding) => {
    const own = q.get(c) ?? star ?? 0;
    return c === "gzip" ? Math.max(own, q.get("x-gzip") ?? 0) : own;
  };
  let best: Coding | undefined;
  let bestWeight = 0;
  for (const coding of offered) {
    const w = weight(coding);
    if (w > bestWeight) [best, bestWeight] = [coding, w];
  }
  return best;
}
