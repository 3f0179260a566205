/**
 * Seeded randomness for property tests: reproducible (the same seed gives the same cases) and a different seed on
 * every run unless `MAPPER_SEED` fixes one, so runs keep exploring while any failure can be replayed.
 *
 * @module
 */

/** A small deterministic PRNG (mulberry32): numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6D2B79F5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded generator with the helpers property tests use. */
export interface Random {
  /** The seed, for the failure message. */
  seed: number;
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T;
  /** `rerun with MAPPER_SEED=…`, to append to a failure message. */
  replay: string;
}

/** A generator seeded by `MAPPER_SEED` when set, else by a fresh random seed. */
export function seeded(): Random {
  const fixed = Deno.env.get("MAPPER_SEED");
  const seed = fixed !== undefined && /^\d+$/.test(fixed)
    ? Number(fixed)
    : crypto.getRandomValues(new Uint32Array(1))[0]!;
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  return {
    seed,
    next,
    int,
    pick: (list) => list[int(list.length)]!,
    replay: `seed ${seed} (rerun with MAPPER_SEED=${seed})`,
  };
}
