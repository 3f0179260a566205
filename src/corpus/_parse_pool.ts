/**
 * Parses corpus files on several cores: a large batch of YAML is split into chunks that this thread and worker
 * threads decode in parallel (each pulls the next chunk when done, so a busy core takes fewer); a small batch, or any
 * batch on a machine with fewer than 4 CPUs, is decoded in-process, where starting workers costs more than it saves. Either way the result is the same plain data: each file's
 * decoded entries and diagnostics (file:line:col kept), in the order the files were given — the decoder is the one
 * in `_decode.ts`, run by `_parse_worker.ts` inside the workers.
 *
 * YAML is read by the fast reader (`_yaml_fast.ts`); the `yaml` library is loaded only for a file outside its subset,
 * so an empty corpus, or one written in plain block YAML, never loads it.
 *
 * @module
 */
import type { Diagnostic } from "./diagnostic.ts";
import { type DecodeChecks, decodeFile, type RawFile } from "./_decode.ts";
import { fastParse } from "./_yaml_fast.ts";

/** One file to parse. */
export interface ParseJob {
  path: string;
  text: string;
}

/** What parsing one file produced (`raw` is `undefined` when a problem in `fatal` stopped it). */
export interface ParseOutcome {
  raw: RawFile | undefined;
  fatal: Diagnostic[];
  warnings: Diagnostic[];
}

/** A message to a parse worker. */
export interface ParseRequest {
  id: number;
  files: ParseJob[];
  /** Run the CSS selector checks too. */
  validate: boolean;
}

/** A parse worker's answer. */
type ParseReply = { id: number; results: ParseOutcome[] } | { id: number; error: string };

/** Below this much YAML, decode in-process: a worker needs tens of milliseconds to start and load the parser. */
const IN_PROCESS_BYTES = 192 * 1024;
/** Work is handed out in chunks of about this many characters. */
const CHUNK_CHARS = 32 * 1024;
/** Never more workers than this (memory: each holds its own copy of the decoder and its results). */
const MAX_WORKERS = 3;
/**
 * Workers are used by default only from this many CPUs. Each worker pays for its start, module load and JIT warm-up,
 * and its results are copied back; measured on a 2-CPU machine with the fast reader, a 1.8 MB corpus loaded in
 * ~240 ms in-process and ~300 ms with one helper worker (`deno run -A bench/corpus_compare.ts`).
 */
const MIN_CPUS_FOR_WORKERS = 4;

/** Options of {@linkcode parseFiles}. */
export interface ParseOptions {
  /**
   * Worker threads that parse beside this one for a large batch (default: one per CPU beyond the first, at most 3,
   * from 4 CPUs; else 0 = parse in-process only).
   */
  workers?: number;
  /** Run the authoring checks that need the CSS parser while decoding (`load`'s `validate`). */
  validate?: boolean;
}

/** The decode-time checks of a parse: the CSS selector parser only when validating (it is not loaded otherwise). */
export async function decodeChecks(validate: boolean): Promise<DecodeChecks> {
  return validate ? { selector: (await import("./_css.ts")).checkSelector } : {};
}

/** The default number of helper workers on a machine with `cpus` CPUs. */
export function defaultWorkers(cpus: number): number {
  return cpus >= MIN_CPUS_FOR_WORKERS ? Math.min(cpus - 1, MAX_WORKERS) : 0;
}

/**
 * Decodes `jobs`; results are in the same order. This thread takes part: it parses chunks too, so N CPUs start N-1
 * workers (each worker pays for its own start, parser load and JIT warm-up).
 */
export async function parseFiles(jobs: readonly ParseJob[], options: ParseOptions = {}): Promise<ParseOutcome[]> {
  const chars = jobs.reduce((n, j) => n + j.text.length, 0);
  const wanted = options.workers ?? defaultWorkers(navigator.hardwareConcurrency || 1);
  const workers = Math.min(wanted, Math.ceil(chars / CHUNK_CHARS) - 1);
  const validate = options.validate === true;
  if (workers < 1 || chars < IN_PROCESS_BYTES && options.workers === undefined) return await parseHere(jobs, validate);
  return await parseShared(jobs, { workers, here: true, validate });
}

/** Decodes every job on this thread. */
async function parseHere(jobs: readonly ParseJob[], validate: boolean): Promise<ParseOutcome[]> {
  return await decodeJobs(jobs, await decodeChecks(validate));
}

/**
 * Decodes files into plain data (what a worker answers too) with the one decoder (`_decode.ts`). The YAML is read by
 * the fast reader (`_yaml_fast.ts`); the `yaml` library is loaded only for a file the fast reader declines.
 */
export async function decodeJobs(jobs: readonly ParseJob[], checks: DecodeChecks): Promise<ParseOutcome[]> {
  let library: typeof import("./_yaml_library.ts").libraryParse | undefined;
  const out: ParseOutcome[] = [];
  for (const { path, text } of jobs) {
    const source = text.replace(/^\uFEFF/, "");
    let parsed = fastParse(source);
    if (parsed === undefined) {
      library ??= (await import("./_yaml_library.ts")).libraryParse;
      parsed = library(source);
    }
    const fatal: Diagnostic[] = [];
    const warnings: Diagnostic[] = [];
    const raw = decodeFile(path, parsed, fatal, warnings, checks);
    out.push({ raw, fatal, warnings });
  }
  return out;
}

/** A run of consecutive jobs starting at `start`. */
interface Chunk {
  start: number;
  files: ParseJob[];
}

/** Consecutive runs of files of about `chars` characters each. */
function chunk(jobs: readonly ParseJob[], chars: number): Chunk[] {
  const out: Chunk[] = [];
  let current: ParseJob[] = [];
  let start = 0;
  let size = 0;
  jobs.forEach((job, i) => {
    if (current.length > 0 && size + job.text.length > chars) {
      out.push({ start, files: current });
      current = [];
      start = i;
      size = 0;
    }
    current.push(job);
    size += job.text.length;
  });
  if (current.length > 0) out.push({ start, files: current });
  return out;
}

/** How {@linkcode parseShared} splits the work. */
export interface ShareOptions {
  /** Worker threads to start. */
  workers: number;
  /** Whether this thread parses chunks too (without it, a worker that cannot start is an error). */
  here: boolean;
  /** Chunk size in characters (default 32 K). */
  chunkChars?: number;
  /** Run the CSS selector checks too. */
  validate?: boolean;
}

/**
 * Decodes `jobs` on worker threads (and this one when `here`): chunks are handed out as threads become free, each
 * worker with one chunk queued ahead so it never waits for this thread. A worker that fails before its first answer
 * gives its chunks back (exported for tests, which run it without `here` so a broken worker cannot hide).
 */
export async function parseShared(jobs: readonly ParseJob[], options: ShareOptions): Promise<ParseOutcome[]> {
  const results: ParseOutcome[] = new Array(jobs.length);
  const queue = chunk(jobs, options.chunkChars ?? CHUNK_CHARS);
  let remaining = queue.length;
  let failure: Error | undefined;
  let alive = 0;
  let wake: () => void = () => {};
  const changed = () => wake();
  const take = () => queue.shift();
  const store = (c: Chunk, outcomes: ParseOutcome[]) => {
    outcomes.forEach((r, i) => (results[c.start + i] = r));
    remaining--;
  };
  const pool: Worker[] = [];

  const startWorker = () => {
    const worker = new Worker(new URL("./_parse_worker.ts", import.meta.url), { type: "module" });
    pool.push(worker);
    alive++;
    const inFlight: Chunk[] = [];
    let answered = false;
    const feed = () => {
      const c = take();
      if (c === undefined) return;
      inFlight.push(c);
      worker.postMessage({ id: c.start, files: c.files, validate: options.validate === true } satisfies ParseRequest);
    };
    worker.onmessage = (event: MessageEvent<ParseReply>) => {
      answered = true;
      const reply = event.data;
      const c = inFlight.shift()!;
      if ("error" in reply) failure ??= new Error(`corpus parse worker failed: ${reply.error}`);
      else store(c, reply.results);
      feed();
      changed();
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      worker.terminate();
      alive--;
      if (answered) failure ??= new Error(`corpus parse worker failed: ${event.message}`);
      queue.unshift(...inFlight.splice(0)); // never answered: its chunks go back to the others
      changed();
    };
    feed();
    feed();
  };

  try {
    for (let i = 0; i < Math.min(options.workers, queue.length); i++) {
      try {
        startWorker();
      } catch {
        // cannot create workers here (e.g. a binary compiled without the worker module): this thread does it all
        if (!options.here) throw new Error("corpus parse workers cannot be started");
        break;
      }
    }
    const checks = await decodeChecks(options.validate === true);
    while (remaining > 0 && failure === undefined) {
      const c = options.here ? take() : undefined;
      if (c) {
        store(c, await decodeJobs(c.files, checks));
        // Let workers' answers in between chunks, so each gets its next chunk without waiting.
        await new Promise((resolve) => setTimeout(resolve, 0));
        continue;
      }
      if (alive === 0 && !options.here) throw new Error("corpus parse workers failed to start");
      await new Promise<void>((resolve) => (wake = resolve));
    }
    if (failure) throw failure;
    return results;
  } finally {
    for (const worker of pool) worker.terminate();
  }
}
