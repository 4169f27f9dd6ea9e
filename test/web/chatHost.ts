/// <reference lib="dom" />
// A test host for the chat board, built on ext-apps' own host library (AppBridge), bundled by
// test/web/chatBoard.test.ts with esbuild and run in Chromium. It renders the board's page as a host does: in a
// sandboxed iframe (scripts only, an opaque origin) under MCP Apps' default CSP, hands it the tool's input and
// answer, sizes the frame to the height the app reports, passes the app's tools/call to the real server (through
// the test's MCP client, exposed to the page as cfpCallTool) and keeps every ui/update-model-context it gets.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/sdk/types.js';

// The spec's default when a resource declares no csp (MCP Apps 2026-01-26, "Content Security Policy"): nothing
// from the network; inline script and style allowed. ('self' is the opaque sandbox origin here: nothing.)
const DEFAULT_CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'";

export interface ShowRequest {
  html: string;
  tool: string;
  args: Record<string, unknown>;
  result: CallToolResult;
  width: number;
  theme: 'light' | 'dark';
}

declare global {
  interface Window {
    cfpCallTool(params: CallToolRequest['params']): Promise<CallToolResult>;
    cfpShow(req: ShowRequest): Promise<void>;
    cfpContexts: Array<{ content?: unknown[]; structuredContent?: Record<string, unknown> }>;
    cfpSizes: number[];
  }
}

window.cfpContexts = [];
window.cfpSizes = [];

window.cfpShow = async (req) => {
  document.body.replaceChildren();
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('data-testid', 'app-frame');
  frame.style.width = `${req.width}px`;
  frame.style.height = '200px';
  frame.style.border = '0';
  frame.srcdoc = req.html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${DEFAULT_CSP}">`);
  document.body.append(frame);
  const hostContext: NonNullable<ConstructorParameters<typeof AppBridge>[3]>['hostContext'] = {
    theme: req.theme,
    displayMode: 'inline',
    platform: 'web',
    containerDimensions: { width: req.width, maxHeight: 6000 },
    toolInfo: { tool: { name: req.tool, inputSchema: { type: 'object' } } },
  };
  const bridge = new AppBridge(null, { name: 'cfp-test-host', version: '1.0.0' }, { serverTools: {}, updateModelContext: { text: {}, structuredContent: {} } }, { hostContext });
  bridge.oncalltool = (params) => window.cfpCallTool(params);
  bridge.onupdatemodelcontext = async (params) => {
    window.cfpContexts.push(params);
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (height) {
      frame.style.height = `${height}px`;
      window.cfpSizes.push(height);
    }
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: req.args }).then(() => bridge.sendToolResult(req.result));
  };
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
};
