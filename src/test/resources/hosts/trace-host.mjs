// A host that sends its trace context to the gateway as OpenTelemetry-instrumented MCP hosts do: the TypeScript
// SDK's client, over stdio (the arguments are the gateway's command line), calls one tool with the W3C traceparent
// of its own span in the request's _meta. It waits until the gateway offers the tool named in HOST_TOOL, calls it
// with the JSON arguments in HOST_ARGUMENTS and the traceparent in HOST_TRACEPARENT, prints {"result": ...} (or
// {"error": ...}) and closes, which ends the gateway.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [command, ...args] = process.argv.slice(2);
const tool = process.env.HOST_TOOL;
const client = new Client({ name: 'trace-host', version: '1.0' });
await client.connect(new StdioClientTransport({ command, args }));
for (let tries = 0; tries < 120; tries++) {
  if ((await client.listTools()).tools.some((offered) => offered.name === tool)) {
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
try {
  const result = await client.callTool({ name: tool, arguments: JSON.parse(process.env.HOST_ARGUMENTS),
    _meta: { traceparent: process.env.HOST_TRACEPARENT } });
  console.log(JSON.stringify({ result }));
} catch (error) {
  console.log(JSON.stringify({ error: String(error?.message ?? error) }));
}
await client.close();
