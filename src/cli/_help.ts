/**
 * Help text of the command builder, laid out exactly as commander lays it out (the help goldens in `tests/golden/`
 * are the contract): usage line, description, then `Arguments:`, `Options:` and `Commands:` as two aligned columns,
 * descriptions wrapped at the configured width; plus the "did you mean" suggestion after an unknown name.
 *
 * @module
 */
import type { Command, Option } from "./command.ts";

// deno-lint-ignore no-explicit-any
type AnyCommand = Command<any, any>;

const HELP_FLAGS = "-h, --help";
const HELP_DESCRIPTION = "display help for command";
/** Below this many columns for descriptions, commander stops wrapping them. */
const MIN_WIDTH_TO_WRAP = 40;

/** The full help of `cmd`, ending with a newline (text added with `addHelpText` included). */
export function formatHelp(cmd: AnyCommand): string {
  const width = cmd.settings.helpWidth;
  const options = cmd.options.filter((o) => !o.hidden);
  const optionRows: Array<[string, string]> = options.map((o) => [o.flags, optionDescription(o)]);
  optionRows.push([HELP_FLAGS, HELP_DESCRIPTION]);
  const commandRows: Array<[string, string]> = cmd.commands.map((sub) => [subcommandTerm(sub), sub.description()]);
  const helpCommand = cmd.settings.helpCommand;
  if (cmd.commands.length > 0 && !cmd.actionHandler) {
    commandRows.push([helpCommand?.term ?? "help [command]", helpCommand?.description ?? HELP_DESCRIPTION]);
  }
  const argumentRows: Array<[string, string]> = cmd.registeredArguments.some((a) => a.description)
    ? cmd.registeredArguments.map((a) => [a.name, a.description])
    : [];
  const termWidth = Math.max(0, ...[...optionRows, ...commandRows, ...argumentRows].map(([term]) => term.length));
  const item = ([term, description]: [string, string]) => formatItem(term, termWidth, description, width);

  const path: string[] = [];
  for (let c: AnyCommand | null = cmd; c; c = c.parent) path.unshift(c.name());
  let lines = [`Usage: ${path.join(" ")} ${cmd.usage()}`, ""];
  if (cmd.description()) lines.push(boxWrap(cmd.description(), width), "");
  const section = (title: string, rows: Array<[string, string]>) => {
    if (rows.length > 0) lines = lines.concat([title, ...rows.map(item), ""]);
  };
  section("Arguments:", argumentRows);
  section("Options:", optionRows);
  section("Commands:", commandRows);
  const before = cmd.helpText.before.map((text) => `${text}\n`).join("");
  const after = cmd.helpText.after.map((text) => `${text}\n`).join("");
  // The last section ends with an empty line, so the text ends with exactly one newline.
  return before + lines.join("\n") + after;
}

/** `find [options] [query...]`: a subcommand's name, `[options]` when it has any, then its arguments. */
function subcommandTerm(cmd: AnyCommand): string {
  const args = cmd.registeredArguments.map((a) => a.usage()).join(" ");
  return cmd.name() + (cmd.options.length > 0 ? " [options]" : "") + (args ? ` ${args}` : "");
}

/** The description plus `(default: …)` for options that take a value and have a default. */
function optionDescription(option: Option): string {
  if (option.defaultValue === undefined || !option.required) return option.description;
  const extra = `(default: ${JSON.stringify(option.defaultValue)})`;
  return option.description ? `${option.description} ${extra}` : extra;
}

function formatItem(term: string, termWidth: number, description: string, helpWidth: number): string {
  const indent = "  ";
  if (!description) return indent + term;
  const remaining = helpWidth - termWidth - 2 - indent.length;
  const wrapped = remaining < MIN_WIDTH_TO_WRAP || /\n[^\S\r\n]/.test(description)
    ? description
    : boxWrap(description, remaining).replace(/\n/g, "\n" + " ".repeat(termWidth + 2));
  return indent + term.padEnd(termWidth) + "  " + wrapped.replace(/\n/g, `\n${indent}`);
}

/** Wraps text at whitespace so no line is longer than `width` (a longer single word stays whole). */
function boxWrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const out: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const chunks = line.match(/\s*\S+/g);
    if (chunks === null) {
      out.push("");
      continue;
    }
    let current = chunks.shift()!;
    for (const chunk of chunks) {
      if (current.length + chunk.length <= width) {
        current += chunk;
      } else {
        out.push(current);
        current = chunk.trimStart();
      }
    }
    out.push(current);
  }
  return out.join("\n");
}

const MAX_DISTANCE = 3;

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), capped like commander's. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d[i] = [i];
  for (let j = 0; j <= b.length; j++) d[0]![j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

/** ` (Did you mean X?)` for the closest candidate(s) of an unknown name or `--flag`, else the empty string. */
export function suggestSimilar(word: string, candidates: readonly string[]): string {
  const options = word.startsWith("--");
  const bare = options ? word.slice(2) : word;
  let similar: string[] = [];
  let best = MAX_DISTANCE;
  for (const full of new Set(candidates)) {
    const candidate = options ? full.slice(2) : full;
    if (candidate.length <= 1) continue;
    const distance = editDistance(bare, candidate);
    const length = Math.max(bare.length, candidate.length);
    if ((length - distance) / length <= 0.4) continue;
    if (distance < best) {
      best = distance;
      similar = [candidate];
    } else if (distance === best) {
      similar.push(candidate);
    }
  }
  similar.sort((a, b) => a.localeCompare(b));
  if (options) similar = similar.map((c) => `--${c}`);
  if (similar.length > 1) return ` (Did you mean one of ${similar.join(", ")}?)`;
  return similar.length === 1 ? ` (Did you mean ${similar[0]}?)` : "";
}
