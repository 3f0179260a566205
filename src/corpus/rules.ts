/**
 * The per-value validation rules of a corpus: each takes the value as written and returns the
 * problem(s) with a code, a severity and a message that names the fix. The decoder calls them with the value's
 * location; `validate`, `lint`, the corpus server's `/mapper/diagnostics` and `fmt` all see the same findings.
 *
 * @module
 */
import { checkExtract, checkTransform } from "../../assets/extension/resolver.js";

/** One finding of a rule, before it is placed in a file. */
export interface Problem {
  code: string;
  severity: "error" | "warning";
  message: string;
}

/** A problem of a request/message property, with the property key it concerns (for its location). */
export interface FieldProblem extends Problem {
  field: "name" | "source" | "field" | "pattern" | "";
}

const error = (code: string, message: string): Problem => ({ code, severity: "error", message });

/** View `stability` values. */
export const VIEW_STABILITY: readonly string[] = ["stub", "deferred"];
/** Component `stability` values. */
export const COMPONENT_STABILITY: readonly string[] = ["uncertain", "unstable"];
/** View `access.status` values. */
export const ACCESS_STATUS: readonly string[] = ["open", "blocked", "needs-data"];
/** Sources of a request property. */
export const REQUEST_PROPERTY_SOURCES: readonly string[] = ["req.body", "rsp.body", "req.headers", "rsp.headers"];
/** Request property names that would shadow a field every request record already has. */
export const RESERVED_REQUEST_PROPERTIES: readonly string[] = ["status", "method", "duration"];

const PROPERTY_NAME = /^[a-z][a-z0-9_]*$/;
const STACK_FIELD = /^(top|\d+)\.(function|file|line|column)$/;

function oneOf(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(" or ");
}

/** A view's `stability` (`stub`, `deferred`). */
export function viewStability(value: string): Problem | undefined {
  if (VIEW_STABILITY.includes(value)) return undefined;
  return error(
    "stability-invalid",
    `invalid stability value "${value}" for a view; use ${oneOf(VIEW_STABILITY)}, or remove the key`,
  );
}

/** A component's `stability` (`uncertain`, `unstable`). */
export function componentStability(value: string): Problem | undefined {
  if (COMPONENT_STABILITY.includes(value)) return undefined;
  return error(
    "stability-invalid",
    `invalid stability value "${value}" for a component; use ${oneOf(COMPONENT_STABILITY)}, or remove the key`,
  );
}

/** A view's `access: {status, reason}`. */
export function access(status: string | undefined, reason: string | undefined): Problem[] {
  if (status === undefined) {
    return [error("access-status-invalid", `"access" has no "status"; add status: ${ACCESS_STATUS.join(" | ")}`)];
  }
  if (!ACCESS_STATUS.includes(status)) {
    return [error("access-status-invalid", `invalid access.status "${status}"; use ${oneOf(ACCESS_STATUS)}`)];
  }
  if (status !== "open" && (reason === undefined || reason.trim() === "")) {
    return [error(
      "access-reason-required",
      `access.status "${status}" requires a non-empty reason; add reason: <why the page cannot be mapped>`,
    )];
  }
  return [];
}

/** A property name: lower snake case (`^[a-z][a-z0-9_]*$`), so it reads the same in every output format. */
export function propertyName(name: string, code: string): Problem | undefined {
  if (PROPERTY_NAME.test(name)) return undefined;
  const suggestion = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().replace(/[^a-z0-9_]+/g, "_")
    .replace(/^[^a-z]+/, "");
  return error(
    code,
    `property name "${name}" must match ^[a-z][a-z0-9_]*$${suggestion ? `; rename it to "${suggestion}"` : ""}`,
  );
}

/**
 * A component property's `extract` form, with the names of the corpus's components (a head naming one makes a
 * path; pass a Set when checking many). The forms are the extension's: one parser, in the shared resolver.
 * `isSelector` is a real CSS parser's verdict when the caller has one.
 */
export function extractForm(
  extract: string,
  componentNames: readonly string[] | ReadonlySet<string>,
  isSelector?: (selector: string) => boolean,
): Problem | undefined {
  const bad = checkExtract(extract, componentNames, isSelector ? { isSelector } : {});
  if (!bad) return undefined;
  const hint = bad.suggestion === null ? "" : `; did you mean "${bad.suggestion}"?`;
  return error("property-extract-invalid", `${bad.message}${hint}`);
}

/** A component property's `transform` (the shared resolver's list). */
export function transform(value: string): Problem | undefined {
  const bad = checkTransform(value);
  if (!bad) return undefined;
  const hint = bad.suggestion === null ? "" : `; did you mean "${bad.suggestion}"?`;
  return error("property-transform-invalid", `${bad.message}${hint}`);
}

/**
 * Translates an RE2 pattern (the regex dialect Sightmap corpora are written in) to a JavaScript one, or explains why it cannot be used:
 * RE2 has no lookaround, backreferences or atomic groups; its `(?P<name>…)` groups and leading `(?flags)` are mapped.
 */
export function re2(pattern: string): { source: string; flags: string } | { problem: string } {
  let source = pattern;
  let flags = "";
  const leading = /^\(\?([imsU]+)\)/.exec(source);
  if (leading) {
    if (leading[1]!.includes("U")) {
      return { problem: "the ungreedy flag (?U) is not supported; write lazy quantifiers" };
    }
    flags = leading[1]!;
    source = source.slice(leading[0].length);
  }
  const stripped = source.replace(/\\\\/g, "").replace(/\[(?:\\.|[^\]\\])*\]/g, "[]");
  if (/\(\?<?[=!]/.test(stripped)) return { problem: "lookaround (?= (?! (?<= (?<! is not RE2" };
  if (/\(\?>/.test(stripped)) return { problem: "atomic groups (?> are not RE2" };
  if (/\\[1-9]|\\k</.test(stripped)) return { problem: "backreferences are not RE2" };
  if (/\(\?[imsU-]+[:)]/.test(stripped)) return { problem: "inline flags are only supported at the very start" };
  source = source.replace(/\(\?P</g, "(?<");
  try {
    new RegExp(source, flags);
  } catch (err: unknown) {
    return { problem: (err instanceof Error ? err.message : String(err)).replace(/^Invalid regular expression: /, "") };
  }
  return { source, flags };
}

function re2Problem(pattern: string): string | undefined {
  const r = re2(pattern);
  return "problem" in r ? r.problem : undefined;
}

/** A message's `message:` regex. */
export function messageRegex(pattern: string): Problem | undefined {
  const problem = re2Problem(pattern);
  if (problem === undefined) return undefined;
  return error(
    "message-regex-invalid",
    `message regex ${JSON.stringify(pattern)} is not a valid RE2 pattern (${problem}); fix it, or escape ` +
      `special characters with a backslash to match them literally`,
  );
}

/** A request or message property (`{name, source, field?, pattern?}`). */
export function fieldProperty(
  p: { name: string; source: string; field?: string; pattern?: string },
  owner: "request" | "message",
): FieldProblem[] {
  const out: FieldProblem[] = [];
  const add = (field: FieldProblem["field"], severity: Problem["severity"], code: string, message: string) =>
    out.push({ code: `${owner}-property-${code}`, severity, message, field });
  const label = p.name ? `${owner} property "${p.name}"` : `a ${owner} property`;
  if (p.name !== "") {
    const bad = propertyName(p.name, `${owner}-property-invalid-name`);
    if (bad) out.push({ ...bad, field: "name" });
  } else {
    add("name", "error", "invalid-name", `${label} has no "name"; add name: <snake_case>`);
  }
  if (owner === "request") {
    if (RESERVED_REQUEST_PROPERTIES.includes(p.name)) {
      add(
        "name",
        "warning",
        "shadows-reserved",
        `${label} shadows the built-in "${p.name}" of every request record; rename it (e.g. "${p.name}_value")`,
      );
    }
    if (!REQUEST_PROPERTY_SOURCES.includes(p.source)) {
      add(
        "source",
        "error",
        "source-invalid",
        `${label} has source "${p.source}"; use ${oneOf(REQUEST_PROPERTY_SOURCES)}`,
      );
    } else if (p.source.endsWith(".headers") && p.field === undefined) {
      add(
        "source",
        "error",
        "headers-require-field",
        `${label} reads ${p.source} and needs "field": the header name, e.g. field: content-type`,
      );
    }
    if (p.field === undefined && p.pattern === undefined) {
      add(
        "",
        "error",
        "no-extractor",
        `${label} has neither "field" nor "pattern"; add field: <json.path> or pattern: <regex with a group>`,
      );
    }
  } else {
    if (p.source !== "stack") {
      add("source", "error", "source-invalid", `${label} has source "${p.source}"; the only message source is "stack"`);
    }
    if (p.field === undefined) {
      add("", "error", "no-field", `${label} has no "field"; add one, e.g. field: top.file`);
    } else if (!STACK_FIELD.test(p.field)) {
      out.push({
        code: "message-property-field-invalid",
        severity: "error",
        message: `${label} has field "${p.field}"; use top or a frame number, then .function, .file, .line or ` +
          `.column (e.g. top.file, 2.function)`,
        field: "field",
      });
    }
  }
  if (p.pattern !== undefined) {
    const problem = re2Problem(p.pattern);
    if (problem !== undefined) {
      add(
        "pattern",
        "error",
        "pattern-invalid",
        `${label} pattern ${JSON.stringify(p.pattern)} is not RE2: ${problem}`,
      );
    }
  }
  return out;
}
