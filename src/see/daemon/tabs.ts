/**
 * `tabs` and `dialog` of the action engine: list, open and close the session's content tabs, and answer the
 * JavaScript dialog that blocks a tab.
 *
 * @module
 */
import type { CdpParams } from "../../browser/mod.ts";
import type { ActPage } from "./actions.ts";
import { PageError } from "../page_api.ts";
import type { DialogInfo } from "./page_events.ts";

/** One content tab. */
export interface TabInfo {
  /** Full target id (commands accept any unique prefix; lists show 8 characters). */
  id: string;
  /** Tab URL. */
  url: string;
  /** Tab title. */
  title: string;
  /** The corpus view the URL resolves to, or `null`. */
  view: string | null;
  /** The dialog open on it, if any. */
  dialog?: DialogInfo;
}

/** Result of {@linkcode handleDialog}. */
export interface DialogResult {
  /** The action performed. */
  action: "dialog";
  /** Whether the dialog was accepted. */
  accepted: boolean;
  /** The dialog. */
  dialog: DialogInfo;
  /** Text given to a prompt. */
  text?: string;
}

/** Answers the dialog open on a tab: accept (with `text` for a prompt) or dismiss. */
export async function handleDialog(page: ActPage, accept: boolean, text?: string): Promise<DialogResult> {
  const dialog = page.events.dialog(page.sessionId);
  if (!dialog) {
    // A PageError with its own status: any other error became a 500 ("the session daemon answered 500: …").
    throw new PageError("no_dialog", "no dialog is open on this tab", {
      hint: "dialogs appear after an action; 'mapper browser click' reports the one it opened",
      status: 404,
    });
  }
  const params: CdpParams<"Page.handleJavaScriptDialog"> = { accept };
  if (text !== undefined) {
    if (dialog.type !== "prompt") {
      throw new PageError(
        "not_prompt",
        `the open dialog is ${dialog.type === "alert" ? "an" : "a"} ${dialog.type}; only a prompt takes --text`,
        {
          hint: "leave out --text",
        },
      );
    }
    params.promptText = text;
  }
  await page.send("Page.handleJavaScriptDialog", params, 10_000);
  const r: DialogResult = { action: "dialog", accepted: accept, dialog };
  if (text !== undefined) r.text = text;
  return r;
}
