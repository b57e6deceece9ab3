// A stand-in npm registry on loopback, serving the tarballs `make npm`
// wrote, so that scripts/test-install.sh installs bn as users do
// (`npm install @binnacle-dev/bn@VERSION`: the registry's metadata, the
// optional platform packages chosen by os and cpu, the install script)
// with no network.
//
// node scripts/npm-registry.mjs TARBALL_DIR   prints its URL, then serves
// until killed; every package it does not hold is a 404.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { execFileSync } from "node:child_process";

const dir = path.resolve(process.argv[2] ?? "");
const packages = new Map(); // name -> { manifest, file }
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".tgz"))) {
  const tgz = path.join(dir, file);
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tgz, "package/package.json"], { encoding: "utf8" }));
  const data = fs.readFileSync(tgz);
  manifest.dist = {
    integrity: "sha512-" + crypto.createHash("sha512").update(data).digest("base64"),
    shasum: crypto.createHash("sha1").update(data).digest("hex"),
  };
  packages.set(manifest.name, { manifest, file });
}

const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split("?")[0]).slice(1);
  const base = `http://127.0.0.1:${server.address().port}`;
  if (url.startsWith("-/tarballs/")) {
    const file = path.basename(url);
    const known = [...packages.values()].some((p) => p.file === file);
    if (known) {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      fs.createReadStream(path.join(dir, file)).pipe(res);
      return;
    }
  }
  const pkg = packages.get(url);
  if (!pkg) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "not found" }));
    return;
  }
  const version = { ...pkg.manifest, dist: { ...pkg.manifest.dist, tarball: `${base}/-/tarballs/${pkg.file}` } };
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ name: pkg.manifest.name, "dist-tags": { latest: version.version }, versions: { [version.version]: version } }));
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}/`));
