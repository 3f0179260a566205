// Test helpers for the corpus area: write a corpus into a temporary directory, validate wire output.
import { Ajv2020 } from "ajv/dist/2020.js";
import { dirname, join } from "node:path";
import schemaText from "../../assets/schema/compiled-corpus.schema.json" with { type: "text" };

/** A temporary corpus directory removed when disposed. */
export interface TempCorpus extends AsyncDisposable {
  /** The temporary root (a site directory). */
  root: string;
  /** The corpus directory (`<root>/.mapper`). */
  dir: string;
  /** Writes (or overwrites) a file relative to the corpus directory, creating parents. */
  write(relative: string, text: string): Promise<void>;
}

/** Creates `<tmp>/site/.mapper` filled with `files` (paths relative to `.mapper`). */
export async function tempCorpus(files: Record<string, string> = {}): Promise<TempCorpus> {
  const base = await Deno.makeTempDir({ prefix: "mapper-corpus-" });
  const root = join(base, "site");
  const dir = join(root, ".mapper");
  await Deno.mkdir(dir, { recursive: true });
  const write = async (relative: string, text: string) => {
    const path = join(dir, relative);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
  };
  for (const [relative, text] of Object.entries(files)) await write(relative, text);
  return {
    root,
    dir,
    write,
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true }).catch(() => {});
    },
  };
}

const ajv = new Ajv2020({ allErrors: true, strict: true });
const validateWire = ajv.compile(JSON.parse(schemaText));

/** Throws with ajv's messages unless `value` matches `assets/schema/compiled-corpus.schema.json`. */
export function assertWireSchema(value: unknown): void {
  if (!validateWire(value)) {
    throw new Error(`wire format does not match the schema: ${ajv.errorsText(validateWire.errors)}`);
  }
}

/** Polls `check` every 20 ms until it returns true; fails after `timeoutMs` naming `what`. */
export async function waitFor(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
