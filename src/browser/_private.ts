/**
 * Private state of the browser session under `~/.mapper/`: directories 0700 (profiles hold cookies and logged-in
 * sessions; logs and the extension are nobody else's business), and the per-project key that names a project's
 * profile and logs.
 *
 * @module
 */
import { basename, dirname } from "node:path";

/** `mkdir -p` with mode 0700, then 0700 on `path` itself even if it existed (an older release made it 0755). */
export async function privateDir(path: string): Promise<void> {
  await Deno.mkdir(path, { recursive: true, mode: 0o700 });
  if (Deno.build.os !== "windows") await Deno.chmod(path, 0o700);
}

/**
 * The key of a project's profile and logs: `<project name>-<first 12 hex digits of SHA-256(real path of the corpus
 * directory)>`, where the project name is the folder holding `.mapper/` (or the corpus folder's own name), reduced
 * to `[A-Za-z0-9._-]`. Two projects whose folders share a name (`x/app`, `y/app`) get different keys; the same
 * project reached through a symlink gets the same one. `dir` must exist.
 */
export async function projectKey(dir: string): Promise<string> {
  const real = await Deno.realPath(dir);
  const named = basename(real) === ".mapper" ? basename(dirname(real)) : basename(real);
  const name = named.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "").slice(0, 40) || "project";
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(real)));
  const hex = Array.from(hash.subarray(0, 6), (b) => b.toString(16).padStart(2, "0")).join("");
  return `${name}-${hex}`;
}
