/**
 * An entry README's front matter: the `---` block split from the body and parsed as YAML (the rules it must follow
 * are `_schema.ts`).
 *
 * @module
 */
import { parse as parseYaml } from "yaml";
import { describe } from "../errors.ts";

/** The first line of an error's message, without the trailing colon a YAML code frame leaves. */
export function firstLine(err: unknown): string {
  return (describe(err).split("\n")[0] ?? "").replace(/:\s*$/, "");
}

/** Splits a README into its front matter (parsed) and body; throws a readable message when malformed. */
export function splitFrontMatter(text: string): { data: unknown; body: string } {
  // A byte order mark (Windows editors write one) is not content.
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  if (lines[0]?.replace(/\r$/, "") !== "---") throw new Error("README.md does not start with a '---' line");
  const end = lines.findIndex((line, i) => i > 0 && line.startsWith("---"));
  if (end < 0) throw new Error("front matter has no closing '---' line");
  const yaml = lines.slice(1, end).map((line) => line.replace(/\r$/, "")).join("\n");
  let data: unknown;
  try {
    data = parseYaml(yaml);
  } catch (err: unknown) {
    throw new Error(`front matter is not valid YAML: ${firstLine(err)}`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new Error("front matter is not a YAML mapping");
  }
  return { data, body: lines.slice(end + 1).join("\n") };
}
