/**
 * The headless API, bundled to dist/core.js (CommonJS, plain Node, no vscode).
 * Importing it does no work: everything below is a declaration.
 */
export { McpClient } from './protocol/client';
export type { ClientHandlers, ClientOptions, RequestOptions } from './protocol/client';
export { McpError } from './protocol/mcpError';
export { ErrorCode } from './protocol/jsonrpc';
export * from './protocol/schema';
export type { Transport, TransportKind } from './protocol/transports/transport';
export type { Logger, LogLevel } from './common/logger';
export { consoleLogger, nullLogger } from './common/logger';
