/**
 * What an McpClient needs once it exists, and an import of the core does not: the JSON-RPC connection (with its
 * in-flight requests and wire trace), the era negotiation and the legacy era, the handlers of server messages, the
 * tool catalog and the request rounds. McpClient loads this on its construction (client.ts, `clientRuntime()`), so
 * `require('dist/core.js')` parses none of it (#28: a third of the core's text, the import is mostly parsing);
 * dist/core.js builds it into a bundle of its own (scripts/coreBundles.mjs), read once, at the first connect.
 */
export { JsonRpcConnection } from './connection';
export { LegacyEra } from './eras/legacyEra';
export { negotiateEra } from './eras/negotiate';
export { paginate, sendWithInput } from './requestRounds';
export { registerNotifications, registerServerRequests } from './serverMessages';
export { TASKS_EXTENSION } from './tasks/extensionTask';
export { ToolCatalog } from './toolCatalog';
