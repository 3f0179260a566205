/**
 * Real front-end packages from the npm registry for the browser tests and benches, straight from Deno's own npm
 * cache: nothing is vendored into the repository and nothing is written under it. `npmPackageDir("tom-select@2.6.2")`
 * answers the directory holding that exact version's files, asking `deno cache` for it first when this machine has
 * not fetched it yet (the registry is the one network place CI and developers' machines reach).
 *
 * Versions are pinned exactly (`PACKAGES`), so a test never meets a release nobody here has tried.
 *
 * @module
 */
import { join } from "node:path";

/** The packages the tests and benches serve, pinned exactly. */
export const PACKAGES = {
  shoelace: "@shoelace-style/shoelace@2.20.1",
  tomSelect: "tom-select@2.6.2",
  tabulator: "tabulator-tables@6.5.3",
  swaggerUi: "swagger-ui-dist@5.35.0",
  // Material Web ships ES modules importing these by bare name; the page's import map points each at its pinned copy
  // (the versions `deno cache npm:@material/web@2.5.0` resolves).
  materialWeb: "@material/web@2.5.0",
  lit: "lit@3.3.3",
  litHtml: "lit-html@3.3.3",
  litElement: "lit-element@4.2.2",
  litReactiveElement: "@lit/reactive-element@2.1.2",
  litContext: "@lit/context@1.1.6",
  tslib: "tslib@2.9.1",
} as const;

/** One pinned package spec (`name@x.y.z`). */
export type PackageSpec = (typeof PACKAGES)[keyof typeof PACKAGES];

/** Splits `@scope/name@1.2.3` / `name@1.2.3` into name and exact version; anything else throws. */
export function parseSpec(spec: string): { name: string; version: string } {
  const m = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(\d+\.\d+\.\d+)$/.exec(spec);
  if (!m) throw new Error(`"${spec}" is not a pinned npm package (name@x.y.z)`);
  return { name: m[1]!, version: m[2]! };
}

let npmCache: Promise<string> | undefined;

/** Deno's npm cache directory, as `deno info --json` reports it (DENO_DIR is honoured by Deno itself). */
function npmCacheDir(): Promise<string> {
  npmCache ??= (async () => {
    const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped", stderr: "piped" })
      .output();
    if (!out.success) throw new Error(`deno info --json failed: ${new TextDecoder().decode(out.stderr)}`);
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { npmCache?: string };
    if (!info.npmCache) throw new Error("deno info --json names no npmCache");
    return info.npmCache;
  })();
  return npmCache;
}

/** The registry's folder name inside the npm cache (Deno names it after the registry's host). */
function registryFolder(): string {
  const registry = Deno.env.get("NPM_CONFIG_REGISTRY") ?? "https://registry.npmjs.org/";
  const url = new URL(registry);
  return [url.host.replace(/:/g, "_"), ...url.pathname.split("/").filter(Boolean)].join("/");
}

function hasPackageJson(dir: string): boolean {
  try {
    return Deno.statSync(join(dir, "package.json")).isFile;
  } catch {
    return false;
  }
}

const pending = new Map<string, Promise<string>>();

/**
 * The directory of one pinned package's files in Deno's npm cache, fetched into it with `deno cache` on first use.
 * Fails with the command's own output when the registry cannot be reached.
 */
export function npmPackageDir(spec: PackageSpec | string): Promise<string> {
  const known = pending.get(spec);
  if (known) return known;
  const found = (async () => {
    const { name, version } = parseSpec(spec);
    const dir = join(await npmCacheDir(), registryFolder(), name, version);
    if (hasPackageJson(dir)) return dir;
    // Outside the repository and without its config: the project's import map and lock file stay untouched.
    const cwd = await Deno.makeTempDir({ prefix: "mapper-npm-" });
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["cache", "--no-config", "--no-lock", "--quiet", `npm:${name}@${version}`],
        cwd,
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (!hasPackageJson(dir)) {
        const why = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" / ");
        throw new Error(`could not fetch npm:${name}@${version} into ${dir}: ${why || "deno cache said nothing"}`);
      }
    } finally {
      await Deno.remove(cwd, { recursive: true });
    }
    return dir;
  })();
  pending.set(spec, found);
  return found;
}
