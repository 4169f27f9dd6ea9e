// Library entry point: the registry and the pieces to embed the service.
export { tools } from '../tools/index.js';
export { createAppDeps, closeAppDeps } from './app.js';
export { loadConfig, type Config } from './config.js';
export { createHttpApp } from './http/app.js';
export { buildOpenApi } from './http/openapi.js';
export { createMcpServer } from './mcp/server.js';
