/**
 * Installing a server from an MCP registry in VS Code: how it runs (a package or a remote, when there is a choice),
 * where it goes (user settings, or the workspace's `.vscode/mcp.json`; Restricted Mode: user only), its values in the
 * one form engine's steps (as Call Tool's), then what will run, shown before anything is written. It is written
 * through the one writer; the configuration watcher starts it (a workspace server after the usual trust question).
 * Secrets answered in the form go to SecretStorage, the entry holds `${input:…}`. Every failure (a checksum, a missing
 * runtime, an invalid server.json) is one error message, and nothing is written.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../common/errors';
import { describeImport } from '../../manager/importSecrets';
import { toolForm } from '../../manager/forms/forms';
import { parseJsonc } from '../../manager/jsonc';
import { answersAsText, answersFromEntry, installSchema } from '../../manager/registry/installForm';
import { buildEntry, installOptions, planInstall, type InstallPlan } from '../../manager/registry/installPlan';
import { prepareInstall } from '../../manager/registry/prepareInstall';
import type { RegistryListing } from '../../manager/registry/registryClient';
import { inputSecretKey, USER_INPUT_SCOPE, workspaceInputScope } from '../inputs';
import { serversAt, writeServerWithInputs, type ServerTarget } from '../serverWriter';
import { askToolArguments } from '../tools/toolForm';

/** What an install needs from the extension. */
export interface InstallDeps {
	secrets: vscode.SecretStorage;
	/** Where .mcpb bundles are unpacked (the extension's global storage folder). */
	storage: string;
}

/** An entry being updated: where it is, and its current configuration (whose answers are kept). */
export interface UpdateOf {
	target: ServerTarget;
	name: string;
	entry: Record<string, unknown>;
	/** The plan of the version installed, to read the answers back from the entry. */
	previous?: InstallPlan;
}

/**
 * Asks for a yes in a quick pick that lists `lines` (what will run): a pick, not a modal, so what is agreed to is
 * on screen (the smoke-test driver answers modals by itself) and the e2e suites can read it. True for `action` only.
 */
export async function confirmInPick(title: string, lines: readonly string[], action: string): Promise<boolean> {
	const picked = await vscode.window.showQuickPick(
		[
			{ label: `$(check) ${action}`, yes: true },
			{ label: '$(close) Cancel', yes: false },
			{ label: 'What it will run', kind: vscode.QuickPickItemKind.Separator, yes: false },
			...lines.map((line) => ({ label: line, yes: false })),
		],
		{ title, ignoreFocusOut: true, placeHolder: `${action}, or Cancel` },
	);
	return picked?.yes === true;
}

/** The places an install may write to now: user settings; the first folder's .vscode/mcp.json when trusted. */
function installTargets(): { label: string; description: string; target: ServerTarget }[] {
	const targets: { label: string; description: string; target: ServerTarget }[] = [
		{ label: 'User settings', description: 'available in every window', target: { kind: 'user' } },
	];
	const folder = vscode.workspace.workspaceFolders?.[0];
	if (folder && vscode.workspace.isTrusted)
		targets.push({
			label: 'Workspace (.vscode/mcp.json)',
			description: `only ${folder.name} (asks for trust before it starts)`,
			target: { kind: 'mcpJson', uri: vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json') },
		});
	return targets;
}

/** The servers already in `target`, as written (for names taken). */
async function serversIn(target: ServerTarget): Promise<Record<string, unknown>> {
	if (target.kind !== 'mcpJson') return serversAt(target) ?? {};
	try {
		const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target.uri));
		const value = parseJsonc(text).value as { servers?: Record<string, unknown> } | undefined;
		return value?.servers ?? {};
	} catch {
		return {};
	}
}

function registryNameOf(entry: unknown): string | undefined {
	const registry = (entry as { registry?: { name?: unknown } } | undefined)?.registry;
	return typeof registry?.name === 'string' ? registry.name : undefined;
}

async function chooseOption(listing: RegistryListing): Promise<number | undefined> {
	const options = installOptions(listing.server).filter((o) => o.supported);
	if (options.length <= 1) return options[0]?.index ?? 0;
	const picked = await vscode.window.showQuickPick(
		options.map((o) => ({ label: o.label, description: o.kind, index: o.index })),
		{ title: `Install ${listing.server.name}: how should it run?`, ignoreFocusOut: true },
	);
	return picked?.index;
}

/**
 * Installs (or, with `update`, updates) `listing`. Resolves with the name written, or undefined when cancelled or
 * refused (the reason shown as an error message).
 */
export async function installFromRegistry(
	deps: InstallDeps,
	listing: RegistryListing,
	update?: UpdateOf,
): Promise<string | undefined> {
	const server = listing.server;
	if (listing.status === 'deprecated' && !update) {
		const reason = `${server.name} is deprecated${listing.statusMessage ? `: ${listing.statusMessage}` : ''}.`;
		if (!(await confirmInPick(reason, [reason], 'Install Anyway'))) return undefined;
	}
	try {
		// The plan first: a server.json with no way to run here is refused before any question.
		planInstall(server, listing.registry);
	} catch (error) {
		void vscode.window.showErrorMessage(`Cannot install ${server.name}: ${errorMessage(error)}`);
		return undefined;
	}
	const option = await chooseOption(listing);
	if (option === undefined) return undefined;
	let target = update?.target;
	if (!target) {
		const targets = installTargets();
		const where =
			targets.length === 1
				? targets[0]
				: await vscode.window.showQuickPick(targets, { title: `Install ${server.name} in`, ignoreFocusOut: true });
		if (!where) return undefined;
		target = where.target;
	}
	let plan: InstallPlan;
	try {
		plan = await vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title: `Preparing ${server.name}…` },
			() => prepareInstall(listing, { storage: deps.storage, option }),
		);
	} catch (error) {
		void vscode.window.showErrorMessage(errorMessage(error));
		return undefined;
	}
	const previous = update ? answersFromEntry(update.previous ?? plan, update.entry) : new Map<string, string>();
	const prefill: Record<string, unknown> = {};
	for (const [id, value] of previous) if (plan.fields.some((f) => f.id === id)) prefill[id] = value;
	let values: Record<string, unknown> = {};
	if (plan.fields.length > 0) {
		const form = toolForm(installSchema(plan));
		// Prefilled answers go in as the form's defaults, so Enter keeps them.
		for (const field of form.fields) if (field.name in prefill) field.default = prefill[field.name];
		const answered = await askToolArguments(`Install ${server.name}`, form);
		if (!answered) return undefined;
		values = answered;
	}
	const answers = answersAsText(values);
	const built = buildEntry(plan, answers);
	const existing = await serversIn(target);
	let name = update?.name ?? plan.key;
	if (!update && name in existing && registryNameOf(existing[name]) !== server.name) {
		const other = await vscode.window.showInputBox({
			title: `A server named '${name}' exists already`,
			prompt: 'A name for the new server',
			value: `${name}-2`,
			validateInput: (text) => (text.trim() in existing ? `'${text.trim()}' exists already` : undefined),
		});
		if (!other) return undefined;
		name = other.trim();
	}
	const where = target.kind === 'user' ? 'user settings' : path.join('.vscode', 'mcp.json');
	const secretIds = plan.fields.filter((f) => f.secret && answers.has(f.id)).map((f) => f.id);
	const lines = [
		`${server.name} ${server.version} (${plan.kind}) as '${name}' in ${where}`,
		...describeImport(built.entry),
		...built.inputs.map(
			(input) =>
				`Asks when it starts: ${input.id}${secretIds.includes(input.id) ? " (your answer goes to VS Code's secret storage)" : ''}`,
		),
	];
	const action = update ? 'Update' : 'Install';
	if (!(await confirmInPick(`${action} ${server.name} ${server.version}?`, lines, action))) return undefined;
	try {
		const scope = target.kind === 'user' ? USER_INPUT_SCOPE : workspaceInputScope();
		for (const id of secretIds) await deps.secrets.store(inputSecretKey(scope, id), answers.get(id) as string);
		await writeServerWithInputs(target, name, built.entry, built.inputs);
	} catch (error) {
		void vscode.window.showErrorMessage(`Could not save MCP server '${name}': ${errorMessage(error)}`);
		return undefined;
	}
	void vscode.window.showInformationMessage(
		`${update ? 'Updated' : 'Installed'} MCP server '${name}' (${server.name} ${server.version}) in ${where}.`,
	);
	return name;
}
