import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { McpError } from '../../src/protocol/mcpError';

test('instanceof McpError holds for an McpError made by another bundled copy of the module', () => {
	// dist/core.js (built before the tests) carries its own copy, as the extension and each e2e suite bundle do.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const OtherMcpError = (require(resolve('dist/core.js')) as { McpError: typeof McpError }).McpError;
	assert.notEqual(OtherMcpError, McpError, 'a separate class');
	const foreign = new OtherMcpError(-32042, 'URL elicitation required', { elicitations: [] });
	assert.ok(foreign instanceof McpError);
	assert.equal(foreign.code, -32042);
	assert.ok(new McpError(1, 'x') instanceof OtherMcpError);
	assert.equal(new Error('plain') instanceof McpError, false);
	assert.equal(Object.assign(new Error('look-alike'), { code: -32042 }) instanceof McpError, false);
	assert.equal((null as unknown as object) instanceof McpError, false);
});
