// A stand-in for a model API, for make test-clients: it answers every
// Gemini generate call and every OpenAI chat completion with "ok" (as a
// stream when asked for one), appends each request to the file argv[2]
// names, then prints the port it listens on. With STANDIN_CALL set to
// {"tool": NAME, "arguments": {...}}, the first chat completion that
// offers that tool is answered with a call of it instead (how a client is
// made to list what only a tool's answer names).
let call = process.env.STANDIN_CALL ? JSON.parse(process.env.STANDIN_CALL) : null;
import http from "node:http";
import fs from "node:fs";
const log = process.argv[2];
const gemini = { candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } };
const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
const chat = { id: "ok", object: "chat.completion", created: 0, model: "probe-model", choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }], usage };
const chunks = [
	{ id: "ok", object: "chat.completion.chunk", created: 0, model: "probe-model", choices: [{ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null }] },
	{ id: "ok", object: "chat.completion.chunk", created: 0, model: "probe-model", choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage },
];
const server = http.createServer((req, res) => {
	let body = "";
	req.on("data", (c) => (body += c));
	req.on("end", () => {
		fs.appendFileSync(log, req.method + " " + req.url + "\n" + body + "\n");
		if (req.url.endsWith("/chat/completions")) {
			let stream = false, offered = [];
			try {
				const r = JSON.parse(body);
				stream = r.stream === true;
				offered = (r.tools ?? []).map((t) => t.function?.name);
			} catch {}
			if (call && offered.includes(call.tool)) {
				const tc = [{ index: 0, id: "call_standin", type: "function", function: { name: call.tool, arguments: JSON.stringify(call.arguments) } }];
				call = null;
				const done = { id: "ok", object: "chat.completion.chunk", created: 0, model: "probe-model", choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }], usage };
				if (stream) {
					res.writeHead(200, { "content-type": "text/event-stream" });
					res.end("data: " + JSON.stringify({ ...chunks[0], choices: [{ index: 0, delta: { role: "assistant", tool_calls: tc }, finish_reason: null }] }) +
						"\n\ndata: " + JSON.stringify(done) + "\n\ndata: [DONE]\n\n");
				} else {
					res.writeHead(200, { "content-type": "application/json" });
					res.end(JSON.stringify({ ...chat, choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: tc }, finish_reason: "tool_calls" }] }));
				}
			} else if (stream) {
				res.writeHead(200, { "content-type": "text/event-stream" });
				res.end(chunks.map((c) => "data: " + JSON.stringify(c) + "\n\n").join("") + "data: [DONE]\n\n");
			} else {
				res.writeHead(200, { "content-type": "application/json" });
				res.end(JSON.stringify(chat));
			}
		} else if (req.url.includes("alt=sse")) {
			res.writeHead(200, { "content-type": "text/event-stream" });
			res.end("data: " + JSON.stringify(gemini) + "\n\n");
		} else {
			res.writeHead(200, { "content-type": "application/json" });
			res.end(JSON.stringify(gemini));
		}
	});
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
