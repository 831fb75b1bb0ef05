// The workbench for server authors in a real VS Code, against server-everything: Record Session on a running server
// records its JSON-RPC exchange until Stop Recording, which saves a *.mcpsession.json file that
// `mcp-switchboard replay` serves back (the replay itself is tested in test/integration/sessionReplay.test.ts).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { Commands } from '../../../src/vscode/commandIds';
import { serverWithTool } from './elicitationSupport';
import { extensionApi, test } from './harness';

const SERVER = 'everything';

async function ready(): Promise<SwitchboardApi> {
	const extension = await extensionApi<SwitchboardApi>();
	if (extension.manager.get(SERVER)?.state.kind === 'needsTrust')
		await vscode.commands.executeCommand(Commands.startServer, SERVER);
	await serverWithTool(SERVER, 'echo');
	return extension;
}

test('Record Session saves the exchange with a server as a replayable file', async () => {
	const extension = await ready();
	const folder = vscode.workspace.workspaceFolders![0]!.uri;
	const file = vscode.Uri.joinPath(folder, 'recorded.mcpsession.json');
	try {
		assert.deepEqual(await vscode.commands.executeCommand(Commands.recordSession, SERVER), { recording: SERVER });
		assert.equal(extension.workbench.recordings.isRecording(SERVER), true);
		await extension.manager.callTool(SERVER, 'echo', { message: 'recorded in VS Code' });
		const saved = await vscode.commands.executeCommand<{ file: vscode.Uri; messages: number }>(
			Commands.stopRecording,
			SERVER,
			file,
		);
		assert.ok(saved.messages >= 2, `at least the call and its answer (got ${saved.messages})`);
		assert.equal(extension.workbench.recordings.isRecording(SERVER), false);
		const session = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(file))) as {
			format: string;
			server: string;
			initialize: { serverInfo: { name: string } };
			messages: { dir: string; message: { method?: string; params?: { name?: string }; result?: unknown } }[];
		};
		assert.equal(session.format, 'mcp-switchboard-session/1');
		assert.equal(session.server, SERVER);
		assert.equal(session.initialize.serverInfo.name, 'mcp-servers/everything');
		const call = session.messages.find((m) => m.dir === 'out' && m.message.params?.name === 'echo');
		assert.ok(call, 'the echo call is in the file');
		assert.match(JSON.stringify(session.messages), /Echo: recorded in VS Code/);
	} finally {
		await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
	}
});
