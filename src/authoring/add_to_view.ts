/**
 * Adds components to a view where a corpus file declares it (`mapper draft` on a page a view serves already): the
 * new entries are appended to that view's `components:` on the `yaml` Document API, so everything else in the file —
 * comments, order, the other views — stays as written; the caller canonicalises the result.
 *
 * @module
 */
import { isMap, isScalar, isSeq, parse as parseYaml, parseDocument, type YAMLMap, type YAMLSeq } from "yaml";

/** What {@linkcode addToView} did. */
export type AddToViewResult =
  | { kind: "ok"; text: string }
  | { kind: "parse-error"; message: string }
  | { kind: "no-view"; message: string };

/**
 * `text` (a corpus file) with `components` (a YAML list of component entries) appended to the components of its
 * view named `view`. Pure.
 */
export function addToView(text: string, view: string, components: string): AddToViewResult {
  const doc = parseDocument(text);
  const err = doc.errors[0];
  if (err) return { kind: "parse-error", message: err.message.split("\n")[0] ?? err.message };
  const added: unknown = parseYaml(components);
  if (!Array.isArray(added)) return { kind: "parse-error", message: "the additions are not a list of components" };
  const views = isMap(doc.contents) ? (doc.contents as YAMLMap).get("views") : undefined;
  const entry = isSeq(views)
    ? (views as YAMLSeq).items.find((v) => isMap(v) && scalarText((v as YAMLMap).get("name", true)) === view)
    : undefined;
  if (entry === undefined) return { kind: "no-view", message: `no view named "${view}" in the file` };
  const map = entry as YAMLMap;
  const list = map.get("components");
  if (isSeq(list)) {
    for (const c of added) (list as YAMLSeq).items.push(doc.createNode(c));
  } else {
    map.set("components", doc.createNode(added));
  }
  return { kind: "ok", text: doc.toString({ lineWidth: 0 }) };
}

function scalarText(node: unknown): string | undefined {
  return isScalar(node) ? String(node.value) : undefined;
}
