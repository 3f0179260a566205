/**
 * The smoke run of the benches (`tests/bench_smoke_test.ts` sets `MAPPER_BENCH_SMOKE=1`): each bench runs its whole
 * path once on a tiny input, to show it still works; its figures mean nothing then.
 *
 * @module
 */

/** True in a smoke run. */
export const SMOKE = Deno.env.get("MAPPER_BENCH_SMOKE") === "1";

/** `full` in a real run, `tiny` in a smoke run. */
export function sized<T>(full: T, tiny: T): T {
  return SMOKE ? tiny : full;
}
