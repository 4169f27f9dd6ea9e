import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { RpcError } from '../rpcError.js';
import { callCtx, type AppDeps, type Caller } from '../../context.js';
import { ApiError, asApiError } from '../../errors.js';
import { ownerCtx } from '../owner.js';
import { latestReportResource, resourceDefinitions } from '../../../tools/resources.js';
import { CHAT_BOARD_URI, chatBoardResource, readChatBoard } from '../../../tools/app.js';

/** MCP's code for a resource that does not exist (specification, server/resources "Error Handling"). */
export const RESOURCE_NOT_FOUND = -32002;

/** An ApiError from a service, as the JSON-RPC error a resources/read caller gets. */
function toRpcError(err: ApiError): RpcError {
  if (err.status === 404) return new RpcError(RESOURCE_NOT_FOUND, err.message);
  if (err.status === 400) return new RpcError(ErrorCode.InvalidParams, err.message);
  return new RpcError(ErrorCode.InvalidRequest, err.message);
}

/**
 * Reads one resource with the same rules as a tool call: personal resources need the owner's
 * token and are charged to the owner's personal bucket; everything a service returns is the
 * owner's own (services scope every query by user).
 */
export async function readResource(deps: AppDeps, caller: Caller, token: string | undefined, uri: string): Promise<ReadResourceResult> {
  try {
    // The chat board's page: static, public, the same for everyone (tools/app.ts).
    if (uri === CHAT_BOARD_URI) return { contents: readChatBoard() };
    for (const def of resourceDefinitions) {
      const params = def.match(uri);
      if (params === null) continue;
      let ctx;
      if (def.access === 'personal') ctx = ownerCtx({ deps, caller, token });
      else {
        deps.limiter.take('library', caller.key);
        ctx = callCtx(deps, null, caller);
      }
      return { contents: await def.read(ctx, params, uri) };
    }
    throw new ApiError(404, `no resource at ${uri}; call resources/templates/list for the URI templates`);
  } catch (err) {
    const known = asApiError(err);
    if (known) throw toRpcError(known);
    console.error('[resources/read]', err);
    throw new RpcError(ErrorCode.InternalError, 'internal error; the server log has details');
  }
}

export function registerResources(server: Server, deps: AppDeps, caller: Caller, token: string | undefined): void {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: resourceDefinitions.map((d) => d.template),
  }));
  // The one fixed URI is also listed as a resource, for clients that only browse resources/list; and the chat board.
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const t = latestReportResource.template;
    return { resources: [{ uri: t.uriTemplate, name: t.name, title: t.title, description: t.description, mimeType: t.mimeType }, chatBoardResource] };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => readResource(deps, caller, token, request.params.uri));
}
