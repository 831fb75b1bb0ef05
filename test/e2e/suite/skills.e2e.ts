// A server's skills (the Skills extension, SEP-2640) in the real VS Code, as a user meets them: a Skills group under
// the server in the Servers view (name, description, tooltip) listed without reading any SKILL.md; a click opens the
// skill read-only, fetched then and checked against its size and digest (a tampered one is refused with an error
// naming its server); Attach to @mcp opens the chat with the skill attached, and the request sends its text to the
// model (the Fake Echo model of test/e2e/fixture-extension), counted in the ledger under skills.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../../src/extension';
import { handleChatRequest, type ChatMetadata } from '../../../src/vscode/chat/chatParticipant';
import { Commands } from '../../../src/vscode/commandIds';
import { parseSkillUri, skillUri } from '../../../src/vscode/shared/skillUris';
import type { TreeNode } from '../../../src/vscode/shared/treeNodes';
import { needDriver, repoRoot, resultText } from './elicitationSupport';
import { driver, extensionApi, pageTexts, screenshot, test, waitFor } from './harness';

const SERVER = 'skills-e2e';
const TAMPERED = 'skills-tampered-e2e';
const SKILL = 'release-notes';
const DESCRIPTION = 'Write the release notes of a version from its merged pull requests';

/** Adds the context fixture (one skill) and its tampered twin to the user settings for the body, removes them after. */
async function withSkillServers(body: (a: SwitchboardApi) => Promise<void>): Promise<void> {
	const a = await extensionApi<SwitchboardApi>();
	const script = path.join(repoRoot(), 'test/fixtures/servers/contextServer.js');
	const config = vscode.workspace.getConfiguration('mcpSwitchboard');
	const previous = config.inspect<Record<string, unknown>>('servers')?.globalValue;
	await config.update(
		'servers',
		{
			...(previous ?? {}),
			[SERVER]: { type: 'stdio', command: process.execPath, args: [script] },
			[TAMPERED]: { type: 'stdio', command: process.execPath, args: [script, '--tamper'] },
		},
		vscode.ConfigurationTarget.Global,
	);
	try {
		for (const name of [SERVER, TAMPERED])
			await waitFor(() => a.manager.get(name)?.state.kind === 'running', {
				timeoutMs: 30_000,
				message: `'${name}' running (state: ${a.manager.get(name)?.state.kind ?? 'absent'})`,
			});
		await body(a);
	} finally {
		await config.update('servers', previous, vscode.ConfigurationTarget.Global);
		await waitFor(() => a.manager.get(SERVER) === undefined && a.manager.get(TAMPERED) === undefined, {
			timeoutMs: 15_000,
			message: 'the skill servers removed again',
		});
	}
}

/** How many resources the server has read so far (its `reads` tool). */
async function reads(a: SwitchboardApi, server: string): Promise<number> {
	return Number(resultText(await a.manager.callTool(server, 'reads', {})));
}

/** The skill rows under `server`'s Skills group, once its listing has arrived. */
async function skillRows(a: SwitchboardApi, server: string): Promise<TreeNode[]> {
	const group = await waitFor(
		() => a.tree.getChildren(a.tree.serverNode(server)).find((n) => n.kind === 'group' && n.group === 'skills'),
		{ timeoutMs: 15_000, message: `a Skills group under '${server}'` },
	);
	return waitFor(
		() => {
			const rows = a.tree.getChildren(group);
			return rows.length > 0 && rows;
		},
		{ timeoutMs: 15_000, message: `the skills of '${server}' listed` },
	);
}

function text(value: string | vscode.MarkdownString | vscode.TreeItemLabel | undefined): string {
	return typeof value === 'string' ? value : value && 'value' in value ? value.value : (value?.label ?? '');
}

test(
	"a server's skill is listed under it in the Servers view with its description, and no SKILL.md is read to list it",
	async () => {
		await withSkillServers(async (a) => {
			const [row] = await skillRows(a, SERVER);
			assert.ok(row?.kind === 'skill');
			const item = a.tree.resolveTreeItem(a.tree.getTreeItem(row), row);
			assert.equal(text(item.label), SKILL);
			assert.equal(item.description, DESCRIPTION);
			assert.equal(item.contextValue, 'mcpSkill');
			assert.equal(item.command?.command, Commands.openSkill, 'a click opens it');
			// The description as the tooltip renders it (appendText keeps its spaces as &nbsp;).
			const tooltip = text(item.tooltip).replace(/&nbsp;/g, ' ');
			assert.ok(tooltip.includes(DESCRIPTION) && /SKILL\.md \d+ bytes; 1 file/.test(tooltip), tooltip);
			const group = a.tree.getTreeItem(a.tree.getParent(row)!);
			assert.equal(text(group.label), 'Skills');
			assert.equal(group.description, '1');
			// server-everything does not declare the extension: no Skills group.
			const everything = a.tree.getChildren(a.tree.serverNode('everything'));
			assert.ok(everything.length > 0 && !everything.some((n) => n.kind === 'group' && n.group === 'skills'));
			assert.equal(await reads(a, SERVER), 0, 'listing read no file');
			// On screen: the group and the row, with its Attach action.
			needDriver();
			await vscode.commands.executeCommand('workbench.view.extension.mcpSwitchboard');
			const shown = await waitFor(
				async () => {
					await a.treeView.reveal(row, { expand: true, select: false, focus: false }).then(
						() => undefined,
						() => undefined,
					);
					const rows = await pageTexts('.pane-body .monaco-list-row');
					const actions = (await driver({
						action: 'evaluate',
						script: `[...document.querySelectorAll('.pane-body .monaco-list-row')].filter((r) => r.innerText.includes(${JSON.stringify(SKILL)})).flatMap((r) => [...r.querySelectorAll('.action-label')].map((b) => b.getAttribute('aria-label') ?? b.title ?? ''))`,
					})) as string[];
					return rows.some((r) => r.includes(SKILL) && r.includes('Write the release notes')) && actions;
				},
				{ timeoutMs: 20_000, intervalMs: 500, message: 'the skill row on screen' },
			);
			assert.ok(
				shown.some((label) => label.startsWith('Attach Skill to @mcp')),
				`the row offers Attach inline: ${JSON.stringify(shown)}`,
			);
			await screenshot('skills-tree');
		});
	},
	{ timeoutMs: 90_000 },
);

test(
	'a click opens the skill read-only, fetched then; a tampered skill is refused with an error naming its server',
	async () => {
		await withSkillServers(async (a) => {
			const [row] = await skillRows(a, SERVER);
			const item = a.tree.getTreeItem(row!);
			assert.equal(await reads(a, SERVER), 0);
			const error = await vscode.commands.executeCommand<string | undefined>(
				item.command!.command,
				...((item.command!.arguments ?? []) as unknown[]),
			);
			assert.equal(error, undefined, 'opened');
			const editor = await waitFor(
				() => {
					const active = vscode.window.activeTextEditor;
					return active && parseSkillUri(active.document.uri)?.server === SERVER && active;
				},
				{ timeoutMs: 15_000, message: 'the skill in the active editor' },
			);
			assert.match(editor.document.getText(), /^---\nname: release-notes\n[\s\S]*heliotrope/);
			assert.equal(editor.document.languageId, 'markdown');
			assert.equal(vscode.workspace.fs.isWritableFileSystem('switchboard-skill'), false, 'read-only');
			assert.equal(await reads(a, SERVER), 1, 'SKILL.md read when opened');
			await screenshot('skills-document');

			const [tampered] = await skillRows(a, TAMPERED);
			const refused = await vscode.commands.executeCommand<string | undefined>(Commands.openSkill, tampered);
			assert.match(
				refused ?? '',
				new RegExp(
					`^The skill "${SKILL}" of the MCP server '${TAMPERED}' was not loaded: .*digest sha256:[0-9a-f]{64} is not the manifest's`,
				),
			);
			assert.ok(
				!vscode.window.visibleTextEditors.some((e) => parseSkillUri(e.document.uri)?.server === TAMPERED),
				'the tampered skill is not shown',
			);
			needDriver();
			await vscode.commands.executeCommand('notifications.showList');
			try {
				await waitFor(
					async () =>
						(await pageTexts('.notifications-center .notification-list-item')).some((t) =>
							t.includes(`of the MCP server '${TAMPERED}' was not loaded`),
						),
					{ timeoutMs: 10_000, message: 'the error in the notification center' },
				);
			} finally {
				await vscode.commands.executeCommand('notifications.hideList');
				await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			}
		});
	},
	{ timeoutMs: 90_000 },
);

test(
	'Attach to @mcp: the chat opens with the skill attached, the model receives its text, and the ledger counts it under skills',
	async () => {
		await withSkillServers(async (a) => {
			needDriver();
			const [model] = await waitFor(
				async () => {
					const models = await vscode.lm.selectChatModels({ vendor: 'switchboard-test' });
					return models.length > 0 && models;
				},
				{ timeoutMs: 20_000, message: 'the Fake Echo model' },
			);
			const [row] = await skillRows(a, SERVER);
			await vscode.commands.executeCommand('workbench.action.chat.newChat').then(undefined, () => undefined);
			await vscode.commands.executeCommand(Commands.attachSkill, row);
			// The chat shows the attachment, with `@mcp ` typed for the request.
			await waitFor(
				async () =>
					(await pageTexts('.chat-attached-context-attachment')).some((t) => t.includes(`${SKILL} · SKILL.md`)),
				{ timeoutMs: 15_000, message: 'the skill attached in the chat input' },
			);
			await screenshot('skills-attached');
			// The user's request (as pressing Enter after typing it): the input and its attachment are sent.
			await vscode.commands.executeCommand('workbench.action.chat.open', {
				query: '@mcp follow the attached skill',
			});
			const response = await waitFor(
				async () => {
					const last = (await pageTexts('.interactive-item-container.interactive-response')).at(-1) ?? '';
					return last.includes('follow the attached skill') && last;
				},
				{ timeoutMs: 60_000, intervalMs: 250, message: 'the answer to the request with the skill' },
			);
			assert.ok(
				response.includes(`[attached skill ${SERVER}/${SKILL} of the MCP server '${SERVER}'`),
				response.slice(0, 800),
			);
			assert.ok(response.includes('Context fixture skill marker: heliotrope.'), 'with its text');
			assert.equal(
				await reads(a, SERVER),
				1,
				'SKILL.md fetched once, when attached; the request sent that verified copy',
			);
			const [tampered] = await skillRows(a, TAMPERED);
			const refused = await vscode.commands.executeCommand<string | undefined>(Commands.attachSkill, tampered);
			assert.match(refused ?? '', new RegExp(`of the MCP server '${TAMPERED}' was not loaded: .*digest`), 'refused');

			// The same request through the handler: the skill counts in the ledger under skills, for its server.
			const markdown: string[] = [];
			const stream = new Proxy(
				{ markdown: (value: string | vscode.MarkdownString) => markdown.push(text(value)) },
				{ get: (target, key) => (key in target ? target[key as 'markdown'] : () => undefined) },
			) as unknown as vscode.ChatResponseStream;
			const request = {
				prompt: 'follow the attached skill',
				command: undefined,
				model,
				references: [{ id: 'skill', value: skillUri(SERVER, SKILL), range: [0, 0] }],
				toolReferences: [],
				toolInvocationToken: undefined,
			} as unknown as vscode.ChatRequest;
			const source = new vscode.CancellationTokenSource();
			const result = await handleChatRequest(a.manager, request, { history: [] }, stream, source.token);
			source.dispose();
			assert.equal(result.errorDetails, undefined);
			const row2 = (result.metadata as ChatMetadata).ledger?.find((r) => r.server === SERVER);
			assert.ok(row2 && row2.skills > 20, `the skill is counted for ${SERVER}: ${JSON.stringify(row2)}`);
			assert.ok(markdown.join('').includes('heliotrope'), 'and reached the model');
		});
	},
	{ timeoutMs: 120_000 },
);
