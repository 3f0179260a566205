/**
 * Test data for the page commands: a page as the daemon's snapshot answers it. For tests only.
 *
 * @module
 */
import type { SnapshotPayload } from "./page_api.ts";

/** A one-button page (`main` > `button "Go"`) as `POST /devtools/page/snapshot` answers it for tab `tab` at `url`. */
export function oneButtonPage(tab: string, url: string): SnapshotPayload {
  return {
    schema: 1,
    tab,
    url,
    title: "A",
    view: null,
    corpus: false,
    viewConflicts: [],
    settled: true,
    unmatched: [],
    page: {
      url,
      title: "A",
      readyState: "complete",
      tree: {
        id: 2,
        role: "document",
        name: "A",
        tag: "html",
        children: [{
          id: 3,
          role: "main",
          name: "",
          tag: "main",
          inViewport: true,
          children: [{ id: 1, role: "button", name: "Go", tag: "button", interactive: true, inViewport: true }],
        }],
      },
      counts: {},
      blocked: null,
      coverage: { interactive: 1, t1: 0, t2: 0, t3: 1, orphans: [] },
      conflicts: [],
      elements: 1,
      nextId: 4,
    },
  } as unknown as SnapshotPayload;
}
