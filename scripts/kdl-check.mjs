// Reads KDL that bn wrote with @bgotink/kdl (an independent implementation
// of KDL 2.0 and 1.0, each file read in the version it is written in) and
// checks it says what bn meant.
//
//   node kdl-check.mjs parse FILE COUNT      FILE parses and holds COUNT agent nodes
//   node kdl-check.mjs agent DIR NAME        DIR/NAME.kdl matches DIR/NAME.show.json and DIR/NAME.emit.json
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// ES modules ignore NODE_PATH, so the reader is loaded from CLIENTS_DIR.
const { parseCompat: parse } = await import(pathToFileURL(join(process.env.CLIENTS_DIR, 'node_modules/@bgotink/kdl/v1-compat.js')).href);

const [mode, ...args] = process.argv.slice(2);
const fail = (msg) => { console.error(`kdl-check: ${msg}`); process.exit(1); };
const read = (file) => {
  try {
    return parse(readFileSync(file, 'utf8'));
  } catch (e) {
    fail(`${file}: not valid KDL (2.0 or 1.0): ${e.message}`);
  }
};
const agentsOf = (doc) => doc.nodes.filter((n) => n.getName() === 'agent');
const child = (node, name) => node.children?.nodes.find((n) => n.getName() === name);
const strings = (node, name) => (node.children?.nodes ?? []).filter((n) => n.getName() === name).flatMap((n) => n.getArguments());
const same = (what, got, want) => {
  if (JSON.stringify(got) !== JSON.stringify(want)) fail(`${what}: read ${JSON.stringify(got)}, bn says ${JSON.stringify(want)}`);
};

if (mode === 'parse') {
  const [file, count] = args;
  same(`${file}: agent nodes`, agentsOf(read(file)).length, Number(count));
} else if (mode === 'agent') {
  const [dir, name] = args;
  const file = `${dir}/${name}.kdl`;
  const show = JSON.parse(readFileSync(`${dir}/${name}.show.json`, 'utf8'));
  const emit = JSON.parse(readFileSync(`${dir}/${name}.emit.json`, 'utf8'));
  const nodes = agentsOf(read(file));
  same(`${file}: agent nodes`, nodes.length, 1);
  const agent = nodes[0];
  same(`${file}: name`, agent.getArgument(0), name);
  for (const [node, key] of [['description', 'description'], ['execution', 'execution'], ['lifecycle', 'lifecycle']]) {
    same(`${file}: ${node}`, child(agent, node)?.getArgument(0), show[key]);
  }
  same(`${file}: prompt`, child(agent, 'prompt')?.getArgument(0), emit.prompt);
  const tools = child(agent, 'tools');
  same(`${file}: tools allow`, strings(tools, 'allow'), show.tools_allow);
  same(`${file}: tools deny`, strings(tools, 'deny'), show.tools_deny);
} else {
  fail(`unknown mode ${mode}`);
}
