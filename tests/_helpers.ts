/**
 * Shared test utilities: run the CLI as a user would (a subprocess on `main.ts`), temporary directories that
 * remove themselves, and golden files with an update switch (`UPDATE_GOLDEN=1 deno task test`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT: string = fileURLToPath(new URL("../", import.meta.url));
/** The CLI entry point. */
export const MAIN: string = join(ROOT, "main.ts");

/**
 * The V8 flags the binary is built with, as deno.json's `compile` task gives them (the release workflow and the
 * `mapper` and `start` tasks carry the same; `tests/runtime_flags_test.ts` checks): tests and benches run from source
 * as the binary runs.
 */
export const RUNTIME_FLAGS: readonly string[] = (JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json"))).tasks
  .compile.command as string).split(/\s+/).filter((word) => word.startsWith("--v8-flags="));

/** A temporary directory removed (recursively) when disposed. */
export interface TempDir extends AsyncDisposable {
  /** Absolute path of the directory. */
  readonly path: string;
  /** `join(path, ...parts)`. */
  join(...parts: string[]): string;
}

/**
 * Removes a directory tree, retrying for a moment: a browser's helper processes may still write into a profile
 * just after the browser itself exited, which makes a single recursive remove fail with "directory not empty".
 */
export async function removeTree(path: string): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      await Deno.remove(path, { recursive: true });
      return;
    } catch (err: unknown) {
      if (err instanceof Deno.errors.NotFound) return;
      if (attempt >= 20) throw new Error(`cannot remove test directory "${path}": ${String(err)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Creates a temporary directory; use with `await using`. */
export async function tempDir(prefix = "mapper-test-"): Promise<TempDir> {
  const path = await Deno.makeTempDir({ prefix });
  return {
    path,
    join: (...parts: string[]) => join(path, ...parts),
    async [Symbol.asyncDispose]() {
      await removeTree(path);
    },
  };
}

/** Copies a directory tree (regular files and directories). */
export async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/** Result of one CLI run. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@linkcode runMapper}. */
export interface RunOptions {
  /** Working directory (default: a fresh temp dir is NOT created; the caller's cwd is used). */
  cwd?: string;
  /** Extra environment. HOME should always be a temp dir; `runMapper` sets NO_COLOR and TZ. */
  env?: Record<string, string>;
  /** Text fed to standard input (default: none, stdin closed). */
  stdin?: string;
  /** Extra `deno run` flags placed before `main.ts` (e.g. `--cert ca.pem`). */
  denoFlags?: string[];
  /** Abort to kill the process. */
  signal?: AbortSignal;
}

/** Deno's cache directory for this user, so subprocesses with another HOME reuse the downloaded npm packages. */
function denoDir(): string {
  const env = Deno.env.toObject();
  if (env.DENO_DIR) return env.DENO_DIR;
  const home = env.HOME ?? env.USERPROFILE ?? "/root";
  if (Deno.build.os === "darwin") return join(home, "Library", "Caches", "deno");
  if (Deno.build.os === "windows") return join(env.LOCALAPPDATA ?? home, "deno");
  return join(env.XDG_CACHE_HOME ?? join(home, ".cache"), "deno");
}

/**
 * Environment every CLI test gets: the parent's environment (certificates, proxies, PATH) without any `MAPPER_*`
 * variable, plus a temporary HOME, no colour, a fixed time zone and the shared Deno cache.
 */
export function baseEnv(home: string): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([k]) => !k.startsWith("MAPPER_") && k !== "NO_COLOR"),
  );
  return { ...inherited, DENO_DIR: denoDir(), HOME: home, NO_COLOR: "1", TZ: "UTC" };
}

/** The argv that runs mapper from source with the given deno flags. */
export function mapperCommand(args: readonly string[], denoFlags: readonly string[] = []): string[] {
  return ["run", "-A", "--quiet", ...RUNTIME_FLAGS, ...denoFlags, MAIN, ...args];
}

/** Runs `mapper <args>` as a subprocess and collects stdout, stderr and the exit code. */
export async function runMapper(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const env = options.env ?? {};
  const child = new Deno.Command(Deno.execPath(), {
    args: mapperCommand(args, options.denoFlags),
    cwd: options.cwd ?? ROOT,
    env: { ...baseEnv(env.HOME ?? "/nonexistent-home"), ...env },
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    ...(options.signal ? { signal: options.signal } : {}),
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/**
 * Compares `actual` with `tests/golden/<name>`; with `UPDATE_GOLDEN=1` writes it instead.
 */
export async function assertGolden(name: string, actual: string): Promise<void> {
  const path = join(ROOT, "tests", "golden", name);
  if (Deno.env.get("UPDATE_GOLDEN") === "1") {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, actual);
    return;
  }
  let expected: string;
  try {
    expected = await Deno.readTextFile(path);
  } catch {
    throw new Error(`golden file tests/golden/${name} is missing: run 'UPDATE_GOLDEN=1 deno task test'`);
  }
  assert.deepEqual(actual, expected, `output differs from tests/golden/${name} (UPDATE_GOLDEN=1 to accept)`);
}

/** Lists every file below a directory, as forward-slash paths relative to it, sorted. */
export async function listFiles(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(dir, rel))) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory) out.push(...await listFiles(dir, path));
    else out.push(path);
  }
  return out.sort();
}
