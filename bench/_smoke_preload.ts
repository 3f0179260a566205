/**
 * Preloaded by `tests/bench_smoke_test.ts` into a `deno bench` run (`--preload`): every `Deno.bench` runs once, no
 * warm-up, so the smoke test shows a bench still works without paying for its figures (which it never reads).
 *
 * @module
 */
const original = Deno.bench;

/** One definition from any of `Deno.bench`'s call forms. */
function definition(a: unknown, b: unknown, c: unknown): Deno.BenchDefinition {
  if (typeof a === "string") {
    return typeof b === "function"
      ? { name: a, fn: b as Deno.BenchDefinition["fn"] }
      : { ...(b as Omit<Deno.BenchDefinition, "fn" | "name">), name: a, fn: c as Deno.BenchDefinition["fn"] };
  }
  if (typeof a === "function") return { name: a.name, fn: a as Deno.BenchDefinition["fn"] };
  return typeof b === "function"
    ? { ...(a as Omit<Deno.BenchDefinition, "fn">), fn: b as Deno.BenchDefinition["fn"] }
    : a as Deno.BenchDefinition;
}

Object.defineProperty(Deno, "bench", {
  value: (a: unknown, b?: unknown, c?: unknown) => original({ ...definition(a, b, c), n: 1, warmup: 0 }),
  configurable: true,
  writable: true,
});
