// @ts-check
/// <reference lib="dom" />
// DevTools page: adds the "Mapper" panel.
chrome.devtools.panels.create("Mapper", "", "panel.html");
