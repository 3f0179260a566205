// deno-lint-ignore-file no-console
console.log("worker log");
fetch("/api/data?via=worker").then((r) => r.text()).then(() => postMessage("fetched"));
