// A tiny MCP server over stdio standing in for a shell: its one tool, "run", appends its "command" argument to a
// log file instead of running it, so that a test sees which commands reached the server. Run: node shell-server.js LOG
'use strict';
const fs = require('fs');
const readline = require('readline');

const [log] = process.argv.slice(2);

function answer(request) {
  switch (request.method) {
    case 'initialize':
      return {protocolVersion: request.params.protocolVersion, capabilities: {tools: {}},
        serverInfo: {name: 'shell', version: '1.0.0'}};
    case 'tools/list':
      return {tools: [{name: 'run', description: 'Runs a shell command.',
        inputSchema: {type: 'object', properties: {command: {type: 'string'}}, required: ['command']}}]};
    case 'tools/call':
      fs.appendFileSync(log, request.params.arguments.command + '\n');
      return {content: [{type: 'text', text: 'ran: ' + request.params.arguments.command}]};
    case 'ping':
      return {};
    default:
      return null;
  }
}

const lines = readline.createInterface({input: process.stdin});
lines.on('line', line => {
  const request = JSON.parse(line);
  if (request.id === undefined) {
    return; // a notification
  }
  const result = answer(request);
  process.stdout.write(JSON.stringify(result === null
    ? {jsonrpc: '2.0', id: request.id, error: {code: -32601, message: 'no such method'}}
    : {jsonrpc: '2.0', id: request.id, result}) + '\n');
});
lines.on('close', () => process.exit(0));
