"use strict";
// The platforms bn's npm packages are built for: Node's names for the
// operating system and processor, Go's for the build. scripts/npm-pack.mjs
// writes one package per entry; install.js and bin/bn pick the one that
// matches the machine.
const platforms = {
  "linux-x64": { goos: "linux", goarch: "amd64" },
  "linux-arm64": { goos: "linux", goarch: "arm64" },
  "darwin-x64": { goos: "darwin", goarch: "amd64" },
  "darwin-arm64": { goos: "darwin", goarch: "arm64" },
  "win32-x64": { goos: "windows", goarch: "amd64" },
};

const scope = "@binnacle-dev";
const binaries = ["bn", "bn-mcp", "bn-verify"];

// packageName is the platform package for a Node platform key.
function packageName(key) {
  return `${scope}/bn-${key}`;
}

// nativeDir returns the directory holding this machine's binaries, from
// the platform package npm installed as an optional dependency, or throws
// an error saying what is missing and how to fix it.
function nativeDir() {
  const key = `${process.platform}-${process.arch}`;
  if (!platforms[key]) {
    throw new Error(`bn has no build for ${key}; it is built for ${Object.keys(platforms).join(", ")}`);
  }
  const path = require("path");
  try {
    return path.join(path.dirname(require.resolve(`${packageName(key)}/package.json`)), "bin");
  } catch {
    throw new Error(
      `the package ${packageName(key)}, which holds bn for ${key}, is not installed; ` +
        "reinstall without --no-optional (or --omit=optional)",
    );
  }
}

// exe is a binary's file name on this machine.
function exe(name) {
  return process.platform === "win32" ? `${name}.exe` : name;
}

module.exports = { platforms, scope, binaries, packageName, nativeDir, exe };
