// The conformance suite's server scenarios connect with the TypeScript SDK's client, which the suite gives no
// headers. Loaded with `node --import`, this module adds the gateway's Authorization header (from
// MCP_AUTHORIZATION) to every request, as the headers of a host's server configuration do.
const authorization = process.env.MCP_AUTHORIZATION;
const send = globalThis.fetch;

globalThis.fetch = (input, init = {}) => {
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  headers.set('Authorization', authorization);
  return send(input, { ...init, headers });
};
