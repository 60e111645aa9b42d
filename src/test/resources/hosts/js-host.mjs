// A host as users of two JavaScript agent frameworks configure one, with countersign gateway as its server:
// "agents", the OpenAI Agents SDK's MCPServerStdio or MCPServerStreamableHttp; "langchain", LangChain's
// MultiServerMCPClient. The third argument is the gateway's command line (stdio), or its URL (Streamable HTTP,
// sending the bearer token in HOST_TOKEN). Each gives up on a tool call after its timeout (60 s by default in
// both; the second argument, in ms, sets it, "-" keeps the default) and tells the gateway so with
// notifications/cancelled.
//
// It starts once the gateway offers every tool named in HOST_TOOLS (comma-separated), as a fronted server's tools
// arrive once that server has connected, and prints {"tools": [...]}. Then it reads one JSON line per call on
// stdin, {"tool": NAME, "arguments": {...}}, and prints one JSON line per answer: {"text": ..., "isError": ...},
// or {"failed": MESSAGE} when the framework gave up on the call or raised its error.
import readline from 'node:readline';

const [framework, timeoutArgument, command, ...args] = process.argv.slice(2);
const timeout = timeoutArgument === '-' ? undefined : Number(timeoutArgument);
const wanted = (process.env.HOST_TOOLS ?? '').split(',').filter((name) => name);
const overHttp = command.startsWith('http');
const headers = { Authorization: `Bearer ${process.env.HOST_TOKEN}` };

async function agents() {
  const { MCPServerStdio, MCPServerStreamableHttp } = await import('@openai/agents');
  // The SDK gives the handshake 5 s by default; a gateway's JVM on a loaded build machine may need longer.
  const options = { name: 'countersign', cacheToolsList: false, clientSessionTimeoutSeconds: 60,
    ...(timeout === undefined ? {} : { timeout }) };
  const server = overHttp ? new MCPServerStreamableHttp({ ...options, url: command, requestInit: { headers } })
    : new MCPServerStdio({ ...options, command, args });
  await server.connect();
  return {
    names: async () => (await server.listTools()).map((tool) => tool.name),
    call: async (name, input) => {
      const result = await server.callToolResult(name, input);
      const text = (result.content ?? []).filter((item) => item.type === 'text').map((item) => item.text)
        .join('\n');
      return { text, isError: result.isError === true };
    },
    close: () => server.close(),
  };
}

async function langchain() {
  const { MultiServerMCPClient } = await import('@langchain/mcp-adapters');
  let client;
  let tools = [];
  const connect = async () => {
    client = new MultiServerMCPClient({
      mcpServers: { countersign: overHttp ? { transport: 'http', url: command, headers }
        : { transport: 'stdio', command, args } },
      prefixToolNameWithServerName: false,
      ...(timeout === undefined ? {} : { defaultToolTimeout: timeout }),
    });
    tools = await client.getTools();
  };
  await connect();
  return {
    // the client lists a server's tools once, when it connects: a later tool needs a new connection
    names: async () => {
      if (!wanted.every((name) => tools.some((tool) => tool.name === name))) {
        await client.close();
        await connect();
      }
      return tools.map((tool) => tool.name);
    },
    call: async (name, input) => {
      const output = await tools.find((tool) => tool.name === name).invoke(input);
      const content = Array.isArray(output) ? output[0] : output;
      return { text: typeof content === 'string' ? content : JSON.stringify(content), isError: false };
    },
    close: () => client.close(),
  };
}

const host = framework === 'agents' ? await agents() : await langchain();
let offered = [];
for (let tries = 0; tries < 120; tries++) {
  offered = await host.names();
  if (wanted.every((name) => offered.includes(name))) {
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
console.log(JSON.stringify({ tools: offered }));

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) {
    continue;
  }
  const request = JSON.parse(line);
  try {
    console.log(JSON.stringify(await host.call(request.tool, request.arguments)));
  } catch (error) {
    console.log(JSON.stringify({ failed: String(error?.message ?? error) }));
  }
}
await host.close();
