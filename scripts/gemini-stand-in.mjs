// A stand-in for the Gemini API, for make test-clients: it answers every
// generate call with "ok" and appends each request to the file argv[2]
// names, then prints the port it listens on.
import http from "node:http";
import fs from "node:fs";
const log = process.argv[2];
const server = http.createServer((req, res) => {
	let body = "";
	req.on("data", (c) => (body += c));
	req.on("end", () => {
		fs.appendFileSync(log, req.method + " " + req.url + "\n" + body + "\n");
		const reply = { candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } };
		if (req.url.includes("alt=sse")) {
			res.writeHead(200, { "content-type": "text/event-stream" });
			res.end("data: " + JSON.stringify(reply) + "\n\n");
		} else {
			res.writeHead(200, { "content-type": "application/json" });
			res.end(JSON.stringify(reply));
		}
	});
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
