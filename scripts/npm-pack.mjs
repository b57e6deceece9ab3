// make npm: writes bn's npm packages, in the manner of esbuild and Biome,
// and packs each to a tarball:
//
//   @binnacle-dev/bn            the `bn` command: a Node shim that install.js
//                               replaces with the native binary, and the
//                               platform packages as optional dependencies
//   @binnacle-dev/bn-OS-CPU     bn, bn-mcp and bn-verify for one platform,
//                               with `os` and `cpu` so npm installs only
//                               the machine's
//
// node scripts/npm-pack.mjs VERSION BINDIR OUTDIR
// BINDIR holds GOOS-GOARCH/ directories of built binaries (make binaries).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { platforms, binaries, packageName, scope } = require(path.join(root, "npm/bn/lib/platforms.js"));

const [version, binDir, outDir] = process.argv.slice(2);
if (!version || !binDir || !outDir) {
  console.error("usage: node scripts/npm-pack.mjs VERSION BINDIR OUTDIR");
  process.exit(2);
}
const common = {
  version,
  license: "MIT",
  repository: { type: "git", url: "git+https://github.com/binnacle-dev/bn.git" },
};

function writeJSON(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

function pack(dir) {
  const out = execFileSync("npm", ["pack", "--silent", "--pack-destination", path.resolve(outDir)], { cwd: dir, encoding: "utf8" });
  console.log(path.join(outDir, out.trim().split("\n").pop()));
}

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

for (const [key, { goos, goarch }] of Object.entries(platforms)) {
  const [os, cpu] = key.split("-");
  const dir = path.join(outDir, "src", `bn-${key}`);
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  for (const name of binaries) {
    const file = goos === "windows" ? `${name}.exe` : name;
    fs.copyFileSync(path.join(binDir, `${goos}-${goarch}`, file), path.join(dir, "bin", file));
    fs.chmodSync(path.join(dir, "bin", file), 0o755);
  }
  fs.copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
  fs.writeFileSync(path.join(dir, "README.md"), `# ${packageName(key)}\n\nThe ${key} binaries of ${scope}/bn, which installs this package for you.\n`);
  writeJSON(path.join(dir, "package.json"), {
    name: packageName(key),
    ...common,
    description: `bn's binaries for ${key}`,
    os: [os],
    cpu: [cpu],
    files: ["bin", "LICENSE", "README.md"],
    preferUnplugged: true,
  });
  pack(dir);
}

const main = path.join(outDir, "src", "bn");
fs.cpSync(path.join(root, "npm/bn"), main, { recursive: true });
fs.copyFileSync(path.join(root, "LICENSE"), path.join(main, "LICENSE"));
writeJSON(path.join(main, "package.json"), {
  name: `${scope}/bn`,
  ...common,
  description: "One source of truth for AI agent definitions",
  bin: { bn: "bin/bn" },
  scripts: { postinstall: "node install.js" },
  files: ["bin", "lib", "install.js", "LICENSE", "README.md"],
  optionalDependencies: Object.fromEntries(Object.keys(platforms).map((key) => [packageName(key), version])),
  engines: { node: ">=18" },
});
pack(main);
