/**
 * Whether `wrk` (the HTTP load generator the serving benches use) runs here: benches skip their load side without it.
 *
 * @module
 */

/** True when `wrk --version` runs: a missing program makes `output()` throw at once (not reject), so both are caught. */
export async function wrkInstalled(): Promise<boolean> {
  try {
    await new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" }).output();
    return true;
  } catch {
    return false;
  }
}
