/**
 * A JSON-RPC error a request handler throws, whose message is sent as written. The SDK's McpError
 * puts "MCP error <code>: " into its own message, which the server sends and the client's McpError
 * prefixes again ("MCP error -32002: MCP error -32002: …", issue 38); the protocol layer sends any
 * thrown error's `code` and `message`, so this carries the code beside a plain message.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}
