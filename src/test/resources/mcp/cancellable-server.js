// A tiny MCP server over stdio whose one tool, "hold", does not answer until its call is cancelled: each
// notifications/cancelled it receives is appended to the ledger file as "cancelled ID: REASON", so a test sees which
// request the client asked it to stop. With a file "answer-after-cancel" in the control folder it answers the
// cancelled call anyway, as a server does that finished before the cancellation reached it.
// Run: node cancellable-server.js LEDGER CONTROL_FOLDER
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const [ledger, control] = process.argv.slice(2);
const held = new Map();

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function answer(request) {
  switch (request.method) {
    case 'initialize':
      return {protocolVersion: request.params.protocolVersion, capabilities: {tools: {}},
        serverInfo: {name: 'cancellable', version: '1.0.0'}};
    case 'tools/list':
      return {tools: [{name: 'hold', description: 'Waits until the call is cancelled.',
        inputSchema: {type: 'object', properties: {}}}]};
    case 'ping':
      return {};
    default:
      return null;
  }
}

readline.createInterface({input: process.stdin}).on('line', line => {
  const message = JSON.parse(line);
  if (message.method === 'notifications/cancelled') {
    const id = message.params.requestId;
    fs.appendFileSync(ledger, `cancelled ${id}: ${message.params.reason}\n`);
    if (held.has(id) && fs.existsSync(path.join(control, 'answer-after-cancel'))) {
      send({jsonrpc: '2.0', id, result: {content: [{type: 'text', text: 'finished before it stopped'}]}});
    }
    held.delete(id);
  } else if (message.id === undefined) {
    // another notification
  } else if (message.method === 'tools/call') {
    held.set(message.id, message);
    fs.appendFileSync(ledger, `called ${message.id}\n`);
  } else {
    const result = answer(message);
    send(result === null ? {jsonrpc: '2.0', id: message.id, error: {code: -32601, message: 'no such method'}}
      : {jsonrpc: '2.0', id: message.id, result});
  }
}).on('close', () => process.exit(0));
