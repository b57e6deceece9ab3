// Connects the official MCP TypeScript client to `bn mcp serve`, lists its
// tools and calls each one.   node mcp-check.mjs BN REPO
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const sdk = (p) => import(pathToFileURL(join(process.env.CLIENTS_DIR, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p)).href);
const { Client } = await sdk('client/index.js');
const { StdioClientTransport } = await sdk('client/stdio.js');

const [bn, repo] = process.argv.slice(2);
const fail = (msg) => { console.error(`mcp-check: ${msg}`); process.exit(1); };
const client = new Client({ name: 'bn-mcp-check', version: '1' });
await client.connect(new StdioClientTransport({ command: bn, args: ['mcp', 'serve', '--cwd', repo], stderr: 'inherit' }));

const tools = (await client.listTools()).tools.map((t) => t.name).sort();
if (tools.join() !== 'check_tool,emit_prompt,list_agents,show_agent') fail(`tools: ${tools}`);
const call = async (name, args) => {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) fail(`${name}: ${JSON.stringify(res.content)}`);
  return res.structuredContent;
};
const list = await call('list_agents', {});
if (!list.agents.some((a) => a.name === 'ask')) fail(`list_agents: ${JSON.stringify(list)}`);
const show = await call('show_agent', { name: 'ask' });
if (!show.tools_deny.includes('shell(git push)')) fail(`show_agent: ${JSON.stringify(show)}`);
const emitted = await call('emit_prompt', { name: 'do', description: 'fix the build' });
if (!emitted.prompt.includes('fix the build')) fail(`emit_prompt: ${emitted.prompt.slice(0, 200)}`);
const check = await call('check_tool', { name: 'ask', tool: 'shell(git push origin main)' });
if (check.allowed !== false || check.rule !== 'shell(git push)') fail(`check_tool: ${JSON.stringify(check)}`);
const bad = await client.callTool({ name: 'show_agent', arguments: { name: 'aks' } });
if (!bad.isError) fail('show_agent of an unknown agent did not fail');
await client.close();
