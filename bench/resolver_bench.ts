/**
 * The resolver's hot paths: resolving the one view of a URL in a corpus of 500 routes (the extension does it on
 * every navigation, `mapper match` once), and checking 1000 extract expressions (what `validate` does per corpus).
 * Run: `deno bench -A bench/resolver_bench.ts`.
 */
import { checkExtract, matchRoute, resolveView } from "../assets/extension/resolver.js";

const views = Array.from({ length: 500 }, (_, i) => {
  const shapes = [`/s${i}/:id`, `/s${i}/**`, `/s${i}/*/edit`, `/s${i}/items/:id/reviews`, `/s${i}/about`];
  return { name: `V${i}`, route: shapes[i % shapes.length]! };
});
const urls = Array.from({ length: 100 }, (_, i) => `https://shop.example/s${i * 5 % 500}/items/${i}/reviews?x=1`);

Deno.bench("resolveView - 100 URLs against 500 routes", () => {
  for (const url of urls) resolveView({ views }, url);
});

Deno.bench("matchRoute - one ** route against a deep path, 1000 times", () => {
  for (let i = 0; i < 1000; i++) matchRoute("/a/**/b/**/c", "/a/x/y/z/b/q/r/s/t/c");
});

const exprs = ["text", "attr=href", "exists:Card.Price", "h3.title", ".price > span", "attr:data-sku", "raw_txt"];
const names = new Set(Array.from({ length: 200 }, (_, i) => `Component${i}`).concat(["Card", "Price"]));
Deno.bench("checkExtract - 1000 expressions, 200 component names", () => {
  for (let i = 0; i < 1000; i++) checkExtract(exprs[i % exprs.length]!, names);
});

const valid = exprs.slice(0, 5);
Deno.bench("checkExtract - 1000 valid expressions", () => {
  for (let i = 0; i < 1000; i++) checkExtract(valid[i % valid.length]!, names);
});
