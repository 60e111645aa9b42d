// A host on the TypeScript SDK's client that calls the gateway's tools as MCP tasks (its experimental task API,
// client.experimental.tasks), subscribes to resources and asks for completions, over Streamable HTTP (the first
// argument the gateway's URL, the bearer token in HOST_TOKEN) or stdio (the gateway's command line). It starts once the gateway offers every tool named in
// HOST_TOOLS and prints {"tools": [...]}, having learnt from tools/list which tools may run as tasks. Then it reads
// one JSON line per step on stdin and prints one JSON line per answer:
//   {"op": "stream", "tool": NAME, "arguments": {...}}  callToolStream, as the SDK picks a task itself: prints
//       {"created": TASK}, then {"status": TASK} at each poll, then {"result": CallToolResult} or
//       {"streamError": ...}; it runs in the background, so the steps after it run while it polls
//   {"op": "get" | "result" | "cancel", "taskId": ID}, {"op": "list"}: the task API's own call, its answer as
//       {"answer": ...}
//   {"op": "reconnect"}: ends the session and opens a new one, prints {"session": ID}
//   {"op": "subscribe" | "unsubscribe", "uri": URI}: resources/subscribe or resources/unsubscribe, prints
//       {"answer": {}}; each notifications/resources/updated heard prints {"updated": URI}
//   {"op": "complete", "ref": {...}, "argument": {...}}: completion/complete, its answer as {"answer": ...}
// Each notifications/tasks/status heard prints {"notified": TASK}, each log message {"log": PARAMS}, and each
// progress notification of a streamed call {"progress": PARAMS}. A refused request prints
// {"error": {"code": CODE, "message": MESSAGE}}.
import readline from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema,
  TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const [command, ...args] = process.argv.slice(2);
const wanted = (process.env.HOST_TOOLS ?? '').split(',').filter((name) => name);
const print = (value) => console.log(JSON.stringify(value));
const failure = (error) => ({ error: { code: error?.code ?? null, message: String(error?.message ?? error) } });

let client;
let transport;
async function connect() {
  client = new Client({ name: 'task-host', version: '1.0' });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
    print({ updated: notification.params.uri }));
  client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => print({ notified: notification.params }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => print({ log: notification.params }));
  transport = command.startsWith('http')
    ? new StreamableHTTPClientTransport(new URL(command),
      { requestInit: { headers: { Authorization: `Bearer ${process.env.HOST_TOKEN}` } } })
    : new StdioClientTransport({ command, args });
  await client.connect(transport);
  let names = [];
  for (let tries = 0; tries < 120; tries++) {
    names = (await client.listTools()).tools.map((tool) => tool.name);
    if (wanted.every((name) => names.includes(name))) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return names;
}

async function stream(messages) {
  try {
    for await (const message of messages) {
      if (message.type === 'taskCreated') {
        print({ created: message.task });
      } else if (message.type === 'taskStatus') {
        print({ status: message.task });
      } else if (message.type === 'result') {
        print({ result: message.result });
      } else {
        print({ streamError: failure(message.error).error });
      }
    }
  } catch (error) {
    print({ streamError: failure(error).error });
  }
}

print({ tools: await connect() });

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) {
    continue;
  }
  const step = JSON.parse(line);
  const tasks = client.experimental.tasks;
  try {
    switch (step.op) {
      case 'stream':
        // in the background: the steps after it run while it polls
        stream(tasks.callToolStream({ name: step.tool, arguments: step.arguments }, CallToolResultSchema,
          { onprogress: (progress) => print({ progress }) }));
        break;
      case 'get':
        print({ answer: await tasks.getTask(step.taskId) });
        break;
      case 'result':
        print({ answer: await tasks.getTaskResult(step.taskId, CallToolResultSchema) });
        break;
      case 'cancel':
        print({ answer: await tasks.cancelTask(step.taskId) });
        break;
      case 'list':
        print({ answer: await tasks.listTasks() });
        break;
      case 'subscribe':
        print({ answer: await client.subscribeResource({ uri: step.uri }) });
        break;
      case 'unsubscribe':
        print({ answer: await client.unsubscribeResource({ uri: step.uri }) });
        break;
      case 'complete':
        print({ answer: await client.complete({ ref: step.ref, argument: step.argument }) });
        break;
      case 'reconnect':
        // over HTTP the session ends as a host ends it (DELETE), so the gateway ends its run
        if (transport instanceof StreamableHTTPClientTransport) {
          await transport.terminateSession();
        }
        await client.close();
        await connect();
        print({ session: transport.sessionId ?? null });
        break;
      default:
        print(failure(`no step ${step.op}`));
    }
  } catch (error) {
    print(failure(error));
  }
}
await client.close();
