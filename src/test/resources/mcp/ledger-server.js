// A tiny MCP server over stdio for the crash tests and the team-scale benchmark: its one tool, "append", appends its
// "line" argument to a ledger file, so that every execution is counted.
// Run: node ledger-server.js LEDGER CONTROL_FOLDER [timed]
// With "timed", each line also carries the wall-clock time the call reached the server, in microseconds after a tab.
// A file "broken" in the control folder makes it exit at start, a file "hold" makes it wait before it answers,
// a file "die" makes it exit in the middle of a call, after the line is appended and before it answers.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const [ledger, control, timed] = process.argv.slice(2);
if (fs.existsSync(path.join(control, 'broken'))) {
  process.stderr.write('ledger server: broken on purpose\n');
  process.exit(1);
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function answer(request) {
  switch (request.method) {
    case 'initialize':
      return {protocolVersion: request.params.protocolVersion, capabilities: {tools: {}},
        serverInfo: {name: 'ledger', version: '1.0.0'}};
    case 'tools/list':
      return {tools: [{name: 'append', description: 'Appends a line to the ledger.',
        inputSchema: {type: 'object', properties: {line: {type: 'string'}}, required: ['line']}}]};
    case 'tools/call':
      fs.appendFileSync(ledger, request.params.arguments.line
        + (timed === 'timed' ? '\t' + Math.round((performance.timeOrigin + performance.now()) * 1000) : '') + '\n');
      if (fs.existsSync(path.join(control, 'die'))) {
        process.exit(1);
      }
      return {content: [{type: 'text', text: 'appended'}]};
    case 'ping':
      return {};
    default:
      return null;
  }
}

function serve() {
  const lines = readline.createInterface({input: process.stdin});
  lines.on('line', line => {
    const request = JSON.parse(line);
    if (request.id === undefined) {
      return; // a notification
    }
    const result = answer(request);
    send(result === null ? {jsonrpc: '2.0', id: request.id, error: {code: -32601, message: 'no such method'}}
      : {jsonrpc: '2.0', id: request.id, result});
  });
  lines.on('close', () => process.exit(0));
}

const parent = process.ppid;
(function startWhenReleased() {
  if (process.ppid !== parent) {
    process.exit(0); // the client died while this server was held
  } else if (fs.existsSync(path.join(control, 'hold'))) {
    setTimeout(startWhenReleased, 50);
  } else {
    serve();
  }
})();
