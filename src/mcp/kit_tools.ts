/**
 * The authoring kit's tools: `probe`, `gap`, `suggest`, `draft`, `inspect` and `explain` over `mapper probe|gap|
 * suggest|draft|inspect|explain` (`src/kit/commands.ts`; `explain` with a name is the corpus lookup), each declared
 * over its command (`cliTool`) and answering what the command prints.
 * All read the page and change nothing (`probe` with `all` loads the views' pages in a scratch tab).
 *
 * @module
 */
import { z } from "zod";
import { UsageError } from "../errors.ts";
import type { Annotations, ToolSpec } from "./registry.ts";
import { cliTool } from "./from_cli.ts";
import { registerKit } from "../cli/kit.ts";
import { registerCorpusCommands } from "../cli/corpus_cmds.ts";

// Parameters come from the commands' flags (`from_cli.ts`); these descriptions are written for an agent instead.
const TAB = "The tab to read: its id or a unique prefix (tabs lists them). Needed only when several pages are open.";
const kitCommand = (command: string) => ({ register: registerKit, command });

/** Reads the live page, changes nothing. */
const READ_PAGE: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const probe = cliTool<{ selector: string; max?: number; expect?: number; all?: boolean; tab?: string }>({
  name: "probe",
  title: "Count a CSS selector on the live page",
  description: "How many elements a CSS selector matches on the live page (every root: document, open shadow " +
    "roots, same-origin frames), each with its node id, role, name, visibility and owning component (T1/T2/T3). " +
    "Probe every selector before writing it into the map; expect makes a wrong count an error.",
  cli: {
    ...kitCommand("probe"),
    describe: { selector: 'A CSS selector, e.g. "li.card" or "[data-testid=\'save\']".', tab: TAB },
  },
  annotations: { ...READ_PAGE, openWorldHint: true },
  browser: true,
});

const gap = cliTool<{ scope?: string; include_hidden?: boolean; max_clusters?: number; tab?: string }>({
  name: "gap",
  title: "Orphaned interactive nodes and selectors for them",
  description: "The interactive nodes no component of the map covers, grouped into clusters (same role, nearest " +
    "hooked ancestor, element shape), each with up to three selectors counted live (covers N/N, live count). " +
    "Use it after snapshot coverage shows orphans; probe a candidate, then add it to the view.",
  cli: {
    ...kitCommand("gap"),
    describe: { tab: TAB },
  },
  annotations: READ_PAGE,
  browser: true,
});

const suggest = cliTool<{
  exclude_known?: boolean;
  group?: boolean;
  max?: number;
  min_count?: number;
  kind?: "hooks" | "landmarks" | "repeated" | "controls";
  include_hidden?: boolean;
  yaml?: boolean;
  tab?: string;
}>({
  name: "suggest",
  title: "Candidate components for the live page",
  description: "Candidate components: landmarks, hooks (test ids, data-component, custom elements), forms and " +
    "fields, repeated structures (cards, rows) with a per-instance discriminator, and the controls inside them, " +
    "each with a proposed name and a selector counted live. yaml gives them ready to paste under components:.",
  cli: {
    ...kitCommand("suggest"),
    schema: { kind: z.enum(["hooks", "landmarks", "repeated", "controls"]) },
    describe: { tab: TAB },
  },
  annotations: READ_PAGE,
  browser: true,
});

const draft = cliTool<{ url?: string; view?: string; route?: string; tab?: string }>({
  name: "draft",
  title: "A first view for the live page",
  description: "Drafts a view for the page: its route from the URL (ids as :id), landmarks, forms and fields, " +
    "repeated cards/rows with a per-instance discriminator, and a component for each remaining cluster of " +
    "interactive nodes, every selector counted live to match exactly what it names. Answers the YAML, then the " +
    "coverage before and after and every node it gave up on. Writes nothing: save it with 'mapper draft --out FILE'.",
  cli: {
    ...kitCommand("draft"),
    omit: {
      "--out": "the YAML is the tool's answer; writing it is the separate step 'mapper draft --out FILE'",
      "--force": "the tool writes nothing",
      "--all": "it writes a file per view; that is the separate step 'mapper draft --all --out DIR'",
    },
    describe: { tab: TAB },
  },
  annotations: { ...READ_PAGE, openWorldHint: true },
  browser: true,
});

const inspect = cliTool<{
  selector?: string;
  id?: number;
  depth?: number;
  interactive?: boolean;
  attributes?: boolean;
  include_hidden?: boolean;
  tab?: string;
}>({
  name: "inspect",
  title: "The raw DOM tree for writing selectors",
  description: "The page's elements as a tree for writing selectors: node id, tag, id, stable classes (generated " +
    "ones marked ~), hook attributes, role and name, owning component; shadow roots and frames as their own lines. " +
    "Narrow it with selector or id: a whole page is long.",
  cli: {
    ...kitCommand("inspect"),
    describe: { tab: TAB },
  },
  annotations: READ_PAGE,
  browser: true,
});

const explainNode = cliTool<
  { name?: string; id?: number; grep?: string; selector?: string; max?: number; tab?: string }
>({
  name: "explain",
  title: "Explain a name of the map, or nodes of the live page",
  description: "Exactly one of: name — what the corpus says about a component, view, request or message; id, " +
    "grep or selector — nodes of the live page with their facts, tier (T1/T2/T3) and owning component, ranked " +
    "selector candidates each with its live count, and their ancestors' hooks (for a node with no obvious hook).",
  cli: {
    register: registerCorpusCommands,
    command: "explain",
    omit: { "--format": "tools answer in the text layout; the other formats are for CI annotations and scripts" },
    describe: { tab: TAB },
  },
  annotations: READ_PAGE,
  browser: true,
  prepare(a) {
    const picks = [a.name, a.id, a.grep, a.selector].filter((v) => v !== undefined);
    if (picks.length !== 1) throw new UsageError("pass exactly one of name, id, grep, selector");
    return a;
  },
});

/** The authoring kit's tools, in the order an author uses them. */
export const KIT_TOOLS: readonly ToolSpec[] = [suggest, draft, gap, probe, explainNode, inspect];
