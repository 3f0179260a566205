import { parseFiles, parseShared } from "../src/corpus/_parse_pool.ts";
import { walkCorpus } from "../src/corpus/_walk.ts";
const files = await walkCorpus(Deno.args[0]!, [], []);
const jobs = await Promise.all(files.map(async (f) => ({ path: f.path, text: await Deno.readTextFile(f.path) })));
const mode = Deno.args[1];
const t = performance.now();
if (mode === "here") await parseFiles(jobs, { workers: 0 });
else await parseShared(jobs, { workers: Number(mode), here: true });
console.log(mode, (performance.now() - t).toFixed(0), "ms");
