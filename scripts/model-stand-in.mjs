// A stand-in for a model API, for make test-clients: it answers every
// Gemini generate call and every OpenAI chat completion with "ok" (as a
// stream when asked for one), appends each request to the file argv[2]
// names, then prints the port it listens on.
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
			let stream = false;
			try { stream = JSON.parse(body).stream === true; } catch {}
			if (stream) {
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
