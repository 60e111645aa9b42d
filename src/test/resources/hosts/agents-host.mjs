// A host as a user of the OpenAI Agents SDK for JavaScript configures one: an MCPServerStdio whose command is
// the gateway, with the SDK's own tool-call timeout (60 s unless the first argument, in ms, says otherwise). It
// reads one JSON line per call on stdin, {"tool": NAME, "arguments": {...}}, and prints one JSON line per answer:
// {"text": ..., "isError": ...}, or {"failed": MESSAGE} when the SDK gave up on the call (and told the gateway
// so with notifications/cancelled). The gateway's command line follows the timeout; "-" keeps the SDK's default.
// It starts once the gateway offers every tool named in HOST_TOOLS (comma-separated): a fronted server's tools
// arrive once that server has connected.
import { MCPServerStdio } from '@openai/agents';
import readline from 'node:readline';

const [timeoutArgument, command, ...args] = process.argv.slice(2);
const options = { name: 'countersign', command, args, cacheToolsList: false };
if (timeoutArgument !== '-') {
  options.timeout = Number(timeoutArgument);
}
const server = new MCPServerStdio(options);
await server.connect();
const wanted = (process.env.HOST_TOOLS ?? '').split(',').filter((name) => name);
let offered = [];
for (let tries = 0; tries < 120; tries++) {
  offered = (await server.listTools()).map((tool) => tool.name);
  if (wanted.every((name) => offered.includes(name))) {
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
console.log(JSON.stringify({ tools: offered }));

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) {
    continue;
  }
  const request = JSON.parse(line);
  try {
    const result = await server.callToolResult(request.tool, request.arguments);
    const text = (result.content ?? []).filter((item) => item.type === 'text').map((item) => item.text).join('\n');
    console.log(JSON.stringify({ text, isError: result.isError === true }));
  } catch (error) {
    console.log(JSON.stringify({ failed: String(error?.message ?? error) }));
  }
}
await server.close();
