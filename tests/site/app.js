// deno-lint-ignore-file no-console
console.info("app.js loaded");
