"use strict";
// npm's postinstall: puts the native bn, with bn-mcp and bn-verify beside
// it (bn runs them from its own directory), in place of the Node shim
// bin/bn, so that starting bn (on every hook call an agent tool makes)
// starts no Node process. Each binary is hard-linked, or copied, to a
// temporary name, checked to run, and renamed over its target.
//
// On Windows, npm's command shim names Node and the shim, so the shim
// stays. Where this script fails, or npm runs no scripts, the shim runs
// the native bn itself: slower to start, the same in every other way.
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");
const { binaries, nativeDir, exe } = require("./lib/platforms.js");

function main() {
  if (process.platform === "win32") {
    return;
  }
  const from = nativeDir();
  const bin = path.join(__dirname, "bin");
  for (const name of binaries) {
    const src = path.join(from, exe(name));
    const dst = path.join(bin, exe(name));
    const tmp = `${dst}.install-${process.pid}`;
    fs.rmSync(tmp, { force: true });
    try {
      fs.linkSync(src, tmp);
    } catch {
      fs.copyFileSync(src, tmp);
    }
    fs.chmodSync(tmp, 0o755);
    if (name === "bn") {
      execFileSync(tmp, ["--version"], { stdio: "ignore" });
    }
    fs.renameSync(tmp, dst);
  }
}

try {
  main();
} catch (err) {
  // Not fatal: the shim still runs bn.
  process.stderr.write(`bn: the native binary was not linked in place of the Node shim (${err.message}); bn still runs, through Node\n`);
}
