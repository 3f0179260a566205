/** Wiring of `mapper atlas serve` and `mapper atlas build`: the read-only catalog HTTP API. @module */
import type { Command } from "./command.ts";
import { type CliContext, intArg } from "./context.ts";
import { lazy } from "../lazy.ts";

/** The catalog server and export, loaded when one of them runs. */
const catalogRun = () => lazy<typeof import("../catalog/run.ts")>(new URL("../catalog/run.ts", import.meta.url));

/** Registers `atlas serve` and `atlas build` on the `atlas` group. */
export function registerCatalog(atlas: Command, ctx: CliContext): void {
  atlas
    .command("serve")
    .description("serve the read-only catalog HTTP API from a gallery directory (default: the bundled example)")
    .option("--gallery <dir>", "gallery directory (entries/<slug>/README.md + .mapper/)")
    .option("--port <n>", "TCP port to listen on (0 = any free port)", intArg(0, 65535), 8080)
    .option("--host <addr>", "address to bind", "127.0.0.1")
    .option("--base-url <url>", "public base URL used in links (default: the listening URL)")
    .option("--cert <file>", "TLS certificate (PEM) to serve HTTPS")
    .option("--key <file>", "TLS private key (PEM) to serve HTTPS")
    .option("--watch", "rebuild when the gallery changes (keeps the last good snapshot on errors)")
    .option("--strict", "fail to start when any entry is invalid")
    .action(async (opts) => {
      const { runServe } = await catalogRun();
      ctx.exitCode = await runServe(opts, ctx.io);
    });

  atlas
    .command("build")
    .description("export the catalog API as static files plus a _headers file for CDNs")
    .option("--gallery <dir>", "gallery directory (default: the bundled example)")
    .requiredOption("--out <dir>", "output directory (created; must be empty or missing)")
    .option("--base-url <url>", "public base URL used in links", "http://127.0.0.1:8080")
    .option("--strict", "fail when any entry is invalid")
    .option("--format <format>", "text (default) or github: each entry left out as a workflow annotation at file:line")
    .action(async (opts) => {
      const { runBuild } = await catalogRun();
      ctx.exitCode = await runBuild(opts, ctx.io);
    });
}
