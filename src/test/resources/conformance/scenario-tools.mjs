// The tools, resources and prompts of the MCP conformance suite's server scenarios, over stdio, for the gateway to
// front: the same names and results as the suite's reference "everything" server (examples/servers/typescript in
// its repository), which serves HTTP only and is TypeScript. MCP_SDK_DIR names the installed
// @modelcontextprotocol/sdk.
import { pathToFileURL } from 'node:url';

const sdk = (path) => import(pathToFileURL(`${process.env.MCP_SDK_DIR}/dist/esm/${path}`).href);
const { Server } = await sdk('server/index.js');
const { StdioServerTransport } = await sdk('server/stdio.js');
const { ListToolsRequestSchema, CallToolRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema, ListPromptsRequestSchema, GetPromptRequestSchema, SubscribeRequestSchema,
  UnsubscribeRequestSchema, CompleteRequestSchema } = await sdk('types.js');

const IMAGE = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const AUDIO = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const empty = { type: 'object', properties: {} };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value) => ({ content: [{ type: 'text', text: value }] });
const stringArgument = (name, description) => ({ type: 'object', properties: { [name]: { type: 'string', description } },
  required: [name] });
// a request the client refuses is the tool's error, in the client's words
const failed = (what, error) => ({ isError: true, content: [{ type: 'text', text: `${what} failed: ${error.message}` }] });
const elicited = async (label, params) => {
  try {
    const answer = await server.elicitInput(params);
    return text(`${label}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
  } catch (error) {
    return failed('Elicitation', error);
  }
};

const tools = {
  test_simple_text: {
    description: 'Tests simple text content response',
    call: async () => ({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] })
  },
  test_image_content: {
    description: 'Tests image content response',
    call: async () => ({ content: [{ type: 'image', data: IMAGE, mimeType: 'image/png' }] })
  },
  test_audio_content: {
    description: 'Tests audio content response',
    call: async () => ({ content: [{ type: 'audio', data: AUDIO, mimeType: 'audio/wav' }] })
  },
  test_embedded_resource: {
    description: 'Tests embedded resource content response',
    call: async () => ({
      content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain',
        text: 'This is an embedded resource content.' } }]
    })
  },
  test_multiple_content_types: {
    description: 'Tests response with multiple content types (text, image, resource)',
    call: async () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: IMAGE, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }) } }
      ]
    })
  },
  test_tool_with_logging: {
    description: 'Tests tool that emits log messages during execution',
    call: async (_args, extra) => {
      for (const data of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
        await sleep(50);
      }
      return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] };
    }
  },
  test_tool_with_progress: {
    description: 'Tests tool that reports progress notifications',
    call: async (_args, extra) => {
      const progressToken = extra._meta?.progressToken ?? 0;
      for (const progress of [0, 50, 100]) {
        await extra.sendNotification({ method: 'notifications/progress',
          params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` } });
        await sleep(50);
      }
      return { content: [{ type: 'text', text: String(progressToken) }] };
    }
  },
  test_error_handling: {
    description: 'Tests error response handling',
    call: async () => ({ isError: true,
      content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] })
  },
  test_sampling: {
    description: 'Tests server-initiated sampling (LLM completion request)',
    inputSchema: stringArgument('prompt', 'The prompt to send to the LLM'),
    call: async (args) => {
      try {
        const answer = await server.createMessage({ maxTokens: 100,
          messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }] });
        return text(`LLM response: ${answer.content?.text ?? JSON.stringify(answer.content)}`);
      } catch (error) {
        return failed('Sampling', error);
      }
    }
  },
  test_elicitation: {
    description: 'Tests server-initiated elicitation (user input request)',
    inputSchema: stringArgument('message', 'The message to show the user'),
    call: async (args) => elicited('User response', { message: args.message, requestedSchema: { type: 'object',
      properties: { username: { type: 'string', description: "User's response" },
        email: { type: 'string', description: "User's email address" } },
      required: ['username', 'email'] } })
  },
  test_elicitation_sep1034_defaults: {
    description: 'Tests elicitation with default values (SEP-1034)',
    call: async () => elicited('Elicitation completed', { message: 'Please review and update the form fields with defaults',
      requestedSchema: { type: 'object', properties: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', description: 'Verification status', default: true } } } })
  },
  test_elicitation_sep1330_enums: {
    description: 'Tests elicitation with enum schema improvements (SEP-1330)',
    call: async () => elicited('Elicitation completed', { message: 'Please select options from the enum fields',
      requestedSchema: { type: 'object', properties: {
        untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        titledSingle: { type: 'string', oneOf: [{ const: 'value1', title: 'First Option' },
          { const: 'value2', title: 'Second Option' }, { const: 'value3', title: 'Third Option' }] },
        legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'],
          enumNames: ['Option One', 'Option Two', 'Option Three'] },
        untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
        titledMulti: { type: 'array', items: { anyOf: [{ const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' }, { const: 'value3', title: 'Third Choice' }] } } } } })
  },
  json_schema_2020_12_tool: {
    description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false
    },
    call: async (args) => ({ content: [{ type: 'text', text: `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}` }] })
  }
};

const resources = {
  'test://static-text': { name: 'Static Text Resource', description: 'A static text resource for testing',
    contents: { mimeType: 'text/plain', text: 'This is the content of the static text resource.' } },
  'test://static-binary': { name: 'Static Binary Resource', description: 'A static binary resource (image) for testing',
    contents: { mimeType: 'image/png', blob: IMAGE } },
  'test://watched-resource': { name: 'Watched Resource', description: 'A resource that can be subscribed to',
    contents: { mimeType: 'text/plain', text: 'Watched resource content' } }
};
const template = /^test:\/\/template\/([^/]+)\/data$/;

const userText = (value) => ({ role: 'user', content: { type: 'text', text: value } });
const prompts = {
  test_simple_prompt: { description: 'A simple prompt without arguments',
    get: () => [userText('This is a simple prompt for testing.')] },
  test_prompt_with_arguments: { description: 'A prompt with required arguments',
    arguments: [{ name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true }],
    get: (args) => [userText(`Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`)] },
  test_prompt_with_embedded_resource: { description: 'A prompt that includes an embedded resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    get: (args) => [{ role: 'user', content: { type: 'resource', resource: { uri: args.resourceUri,
      mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      userText('Please process the embedded resource above.')] },
  test_prompt_with_image: { description: 'A prompt that includes image content',
    get: () => [{ role: 'user', content: { type: 'image', data: IMAGE, mimeType: 'image/png' } },
      userText('Please analyze the image above.')] }
};

const server = new Server({ name: 'conformance-scenario-tools', version: '1.0.0' },
  { capabilities: { tools: {}, logging: {}, resources: { subscribe: true }, prompts: {}, completions: {} } });
// The subscribed URIs, each with the timer that updates it: a subscribed resource changes every 200 ms, so that a
// subscriber sees updates until it unsubscribes.
const subscribed = new Map();
server.setRequestHandler(SubscribeRequestSchema, async (request) => {
  const uri = request.params.uri;
  if (!subscribed.has(uri)) {
    subscribed.set(uri, setInterval(() => server.notification({ method: 'notifications/resources/updated',
      params: { uri } }), 200));
  }
  return {};
});
server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
  clearInterval(subscribed.get(request.params.uri));
  subscribed.delete(request.params.uri);
  return {};
});
// Completions of a prompt's argument from a fixed list, by the prefix typed so far, as in the scenario's example.
const candidates = ['paris', 'park', 'party', 'test', 'testing'];
server.setRequestHandler(CompleteRequestSchema, async (request) => {
  const { ref, argument } = request.params;
  const known = ref.type === 'ref/prompt' ? Boolean(prompts[ref.name]) : template.test(ref.uri.replace('{id}', 'x'));
  if (!known) {
    throw new Error(`nothing to complete for ${ref.name ?? ref.uri}`);
  }
  const values = candidates.filter((value) => value.startsWith(argument.value));
  return { completion: { values, total: values.length, hasMore: false } };
});
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: Object.entries(resources).map(([uri, resource]) => ({ uri, name: resource.name,
    description: resource.description, mimeType: resource.contents.mimeType }))
}));
server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
  resourceTemplates: [{ uriTemplate: 'test://template/{id}/data', name: 'Dynamic Resource',
    description: 'A resource template with parameter substitution', mimeType: 'application/json' }]
}));
server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
  const uri = request.params.uri;
  const id = template.exec(uri)?.[1];
  if (id !== undefined) {
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true,
      data: `Data for ID: ${id}` }) }] };
  }
  if (!resources[uri]) {
    throw new Error(`no resource ${uri}`);
  }
  return { contents: [{ uri, ...resources[uri].contents }] };
});
server.setRequestHandler(ListPromptsRequestSchema, async () => ({
  prompts: Object.entries(prompts).map(([name, prompt]) => ({ name, description: prompt.description,
    ...(prompt.arguments ? { arguments: prompt.arguments } : {}) }))
}));
server.setRequestHandler(GetPromptRequestSchema, async (request) => {
  const prompt = prompts[request.params.name];
  if (!prompt) {
    throw new Error(`no prompt ${request.params.name}`);
  }
  return { messages: prompt.get(request.params.arguments ?? {}) };
});
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: Object.entries(tools).map(([name, tool]) => ({ name, description: tool.description,
    inputSchema: tool.inputSchema ?? empty }))
}));
server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const tool = tools[request.params.name];
  if (!tool) {
    return { isError: true, content: [{ type: 'text', text: `unknown tool ${request.params.name}` }] };
  }
  return tool.call(request.params.arguments ?? {}, { ...extra, _meta: request.params._meta });
});
await server.connect(new StdioServerTransport());
