/**
 * `mapper skills install`: write each bundled skill into `<target>/<skill>/`, replacing that skill's old copy and
 * nothing else. Each skill is staged in a fresh directory inside the target and swapped in by rename, so a failure
 * half-way never leaves a skill directory missing.
 *
 * @module
 */
import { assetsUnder, skillNames } from "../assets.ts";
import { describe, FileError } from "../errors.ts";
import type { Io } from "../io.ts";
import { VERSION } from "../version.ts";
import { isAbsolute, join, resolve } from "node:path";

/** Options of `mapper skills install`. */
export interface SkillsInstallOptions {
  /** Target directory; default `~/.agents/skills`. */
  target: string | undefined;
  /** List what would be written and write nothing. */
  dryRun: boolean;
}

/** Default skills directory under a home directory. */
export function defaultSkillsDir(home: string): string {
  return join(home, ".agents", "skills");
}

/** A short random suffix for staging names. */
function suffix(): string {
  return crypto.randomUUID().slice(0, 8);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (err: unknown) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}

/** The file-system operations the swap uses; tests inject failures through it. */
export interface SwapOps {
  rename(from: string, to: string): Promise<void>;
}

const realOps: SwapOps = { rename: (from, to) => Deno.rename(from, to) };

/**
 * Writes one skill's files into a staging directory inside `target`, then swaps it into place: the old copy is
 * renamed aside, the new one renamed in, and the old copy removed. If the swap fails the old copy is put back, so
 * the skill directory is never missing; the staging directory is always removed.
 */
export async function installSkill(target: string, name: string, ops: SwapOps = realOps): Promise<void> {
  const staging = join(target, `.${name}.staging-${suffix()}`);
  const old = join(target, `.${name}.old-${suffix()}`);
  const final = join(target, name);
  try {
    await Deno.mkdir(staging, { mode: 0o755 });
    for (const [rel, content] of assetsUnder(`skills/${name}`)) {
      const file = join(staging, ...rel.split("/"));
      await Deno.mkdir(join(file, ".."), { recursive: true, mode: 0o755 });
      await Deno.writeTextFile(file, content, { mode: 0o644 });
    }
    const hadOld = await exists(final);
    if (hadOld) await ops.rename(final, old);
    try {
      await ops.rename(staging, final);
    } catch (err: unknown) {
      if (hadOld) await Deno.rename(old, final);
      throw err;
    }
    if (hadOld) await Deno.remove(old, { recursive: true });
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
}

/** Runs `mapper skills install`; returns the exit code. */
export async function runSkillsInstall(opts: SkillsInstallOptions, io: Io): Promise<number> {
  const shown = opts.target ?? defaultSkillsDir(io.home);
  const target = isAbsolute(shown) ? shown : resolve(io.cwd, shown);
  const names = skillNames();
  if (opts.dryRun) {
    for (const name of names) {
      for (const [rel, content] of assetsUnder(`skills/${name}`)) {
        const bytes = new TextEncoder().encode(content).length;
        io.stdout.write(`would write ${join(shown, name, ...rel.split("/"))} (${bytes} bytes)\n`);
      }
    }
    return 0;
  }
  try {
    await Deno.mkdir(target, { recursive: true, mode: 0o755 });
  } catch (err: unknown) {
    throw new FileError(`cannot create skills directory "${shown}": ${describe(err)}`, {
      hint: "pass --target with a writable directory",
      cause: err,
    });
  }
  for (const name of names) {
    try {
      await installSkill(target, name);
    } catch (err: unknown) {
      throw new FileError(`cannot install skill "${name}" into "${shown}": ${describe(err)}`, {
        hint: "pass --target with a writable directory",
        cause: err,
      });
    }
    io.stdout.write(`installed ${name} → ${join(shown, name)}\n`);
  }
  io.stdout.write(`mapper ${VERSION}: ${names.length} skills installed\n`);
  return 0;
}
