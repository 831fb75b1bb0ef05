// server-everything over stdio: the shared suite, plus what only stdio has (a process that must not outlive close()).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryLogger } from '../../src/common/logger';
import { McpClient } from '../../src/protocol/client';
import { StdioTransport } from '../../src/protocol/transports/stdio';
import { defineEverythingSuite, everythingMain } from './everythingSuite';
import { processAlive } from '../fixtures/processAlive';

const transports: StdioTransport[] = [];

defineEverythingSuite('stdio', (options) => {
	const transport = new StdioTransport({
		command: process.execPath,
		args: [everythingMain, 'stdio'],
		name: options.name ?? 'everything',
		logger: options.logger,
	});
	transports.push(transport);
	return McpClient.connect(transport, options);
});

describe('server-everything over stdio: the process', () => {
	test("the suite's server process is gone after the client closed", () => {
		assert.ok(transports.length > 0);
		for (const transport of transports) {
			assert.ok(transport.pid !== undefined);
			assert.equal(processAlive(transport.pid), false);
		}
	});

	test("the server's stderr goes to the logger, and a crash fails the client with the exit reason", async () => {
		const logger = new MemoryLogger('debug');
		const transport = new StdioTransport({
			command: process.execPath,
			args: [everythingMain, 'stdio'],
			name: 'everything',
			logger,
		});
		const client = await McpClient.connect(transport, { name: 'everything', logger });
		await new Promise((resolve) => setTimeout(resolve, 100));
		assert.ok(logger.find('[stderr]').length > 0, 'server-everything logs its start on stderr');
		const closed = new Promise<Error>((resolve) => client.onDidClose(resolve));
		const pending = client.callTool('trigger-long-running-operation', { duration: 5, steps: 5 });
		process.kill(transport.pid!, 'SIGKILL');
		await assert.rejects(pending, /Server "everything" was killed by signal SIGKILL/);
		assert.match((await closed).message, /killed by signal SIGKILL/);
		assert.equal(client.isClosed, true);
		await client.close();
	});
});
