/**
 * GitHub Actions workflow commands (`::error file=F,line=L,col=C,title=T::message`): the one renderer every
 * `--format github` output uses (`validate`, `lint`, `fmt`, `atlas validate`), so a CI step annotates the diff at
 * file:line with one line of shell. Values are escaped as the runner expects (`%25`, `%0D`, `%0A`; `%3A` and `%2C`
 * in properties), and control characters are shown, never executed.
 *
 * @module
 */
import { escapeControls } from "./terminal.ts";

/** One annotation. */
export interface Annotation {
  severity: "error" | "warning" | "notice";
  /** Path relative to the repository root (the working directory in CI); absent for a problem of no file. */
  file?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  /** Short title shown above the message (mapper uses the diagnostic code). */
  title?: string | undefined;
  message: string;
}

/** Escapes workflow-command data. */
function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** Escapes a workflow-command property value. */
function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** One workflow command line, with its trailing newline. */
export function githubAnnotation(a: Annotation): string {
  const props: string[] = [];
  if (a.file !== undefined) {
    props.push(`file=${escapeProperty(a.file)}`);
    if (a.line !== undefined) props.push(`line=${a.line}`);
    if (a.line !== undefined && a.column !== undefined) props.push(`col=${a.column}`);
  }
  if (a.title !== undefined) props.push(`title=${escapeProperty(a.title)}`);
  const message = escapeData(escapeControls(a.message, { keepNewlines: true }));
  return `::${a.severity}${props.length > 0 ? ` ${props.join(",")}` : ""}::${message}\n`;
}
