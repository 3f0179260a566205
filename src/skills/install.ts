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
import { toJson } from "../terminal.ts";
import { replaceDirectory, type SwapOps } from "../user_file.ts";
import { isAbsolute, join, resolve } from "node:path";

/** Options of `mapper skills install`. */
export interface SkillsInstallOptions {
  /** Target directory; default `~/.agents/skills`. */
  target: string | undefined;
  /** List what would be written and write nothing. */
  dryRun: boolean;
  /** Print the report as JSON ({@linkcode SkillsReport}) instead of lines. */
  json?: boolean;
}

/**
 * `skills install --json` (schema 1): the target as given (or the default), whether it was a dry run, and each
 * skill with the files written (or that would be written) and their sizes in bytes.
 */
export interface SkillsReport {
  schema: 1;
  version: string;
  target: string;
  dry_run: boolean;
  skills: Array<{ name: string; path: string; files: Array<{ path: string; bytes: number }> }>;
}

/** Default skills directory under a home directory. */
export function defaultSkillsDir(home: string): string {
  return join(home, ".agents", "skills");
}

/**
 * Writes one skill's files into `<target>/<name>/`, staged and swapped in by {@linkcode replaceDirectory}: if the
 * swap fails the old copy is put back, so the skill directory is never missing, and no staging directory is left.
 */
export async function installSkill(target: string, name: string, ops?: SwapOps): Promise<void> {
  const files = assetsUnder(`skills/${name}`);
  await replaceDirectory(join(target, name), files, { dirMode: 0o755, fileMode: 0o644, ...(ops ? { ops } : {}) });
}

/** Runs `mapper skills install`; returns the exit code. */
export async function runSkillsInstall(opts: SkillsInstallOptions, io: Io): Promise<number> {
  const shown = opts.target ?? defaultSkillsDir(io.home);
  const target = isAbsolute(shown) ? shown : resolve(io.cwd, shown);
  const names = skillNames();
  const encoder = new TextEncoder();
  const report: SkillsReport = {
    schema: 1,
    version: VERSION,
    target: shown,
    dry_run: opts.dryRun,
    skills: names.map((name) => ({
      name,
      path: join(shown, name),
      files: assetsUnder(`skills/${name}`).map(([rel, content]) => ({
        path: join(shown, name, ...rel.split("/")),
        bytes: encoder.encode(content).length,
      })),
    })),
  };
  if (opts.dryRun) {
    if (opts.json) io.stdout.write(toJson(report));
    else {for (const skill of report.skills) {
        for (const f of skill.files) io.stdout.write(`would write ${f.path} (${f.bytes} bytes)\n`);
      }}
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
  for (const skill of report.skills) {
    try {
      await installSkill(target, skill.name);
    } catch (err: unknown) {
      throw new FileError(`cannot install skill "${skill.name}" into "${shown}": ${describe(err)}`, {
        hint: "pass --target with a writable directory",
        cause: err,
      });
    }
    if (!opts.json) io.stdout.write(`installed ${skill.name} → ${skill.path}\n`);
  }
  io.stdout.write(opts.json ? toJson(report) : `mapper ${VERSION}: ${names.length} skills installed\n`);
  return 0;
}
