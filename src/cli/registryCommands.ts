/**
 * `mcp-switchboard search` and `add`: the MCP Registry from the command line, on the same client and conversion as
 * the extension (src/manager/registry/). `add` writes the server into the workspace folder's `.vscode/mcp.json`
 * (VS Code's format, which the extension and this command line read) with JSONC edits that keep comments, after
 * showing what will run. Secrets are never written: they stay `${input:…}` password inputs, answered when the server
 * runs (in VS Code, or here with `--input` or MCP_SWITCHBOARD_INPUT_<ID>).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { errorMessage } from '../common/errors';
import { describeImport } from '../manager/importSecrets';
import { parseJsonc } from '../manager/jsonc';
import { buildEntry, installOptions, type InstallField, type InstallPlan } from '../manager/registry/installPlan';
import { prepareInstall } from '../manager/registry/prepareInstall';
import {
	findServer,
	RegistryError,
	registryUrls,
	searchRegistries,
	type RegistryListing,
} from '../manager/registry/registryClient';
import { addMcpJsonInputs, changeMcpJson } from '../manager/serverEntries';
import type { CliOptions, Command } from './args';
import { userStateDir } from './cacheDir';
import { EXIT, type Output } from './commands';
import { inputEnvName } from './inputs';

/** The environment variable that names the registry (a URL, or several separated by spaces or commas). */
export const REGISTRY_ENV = 'MCP_SWITCHBOARD_REGISTRY';

/** The registries to ask: `--registry`, then $MCP_SWITCHBOARD_REGISTRY, then the workspace's setting, then the official one. */
export function cliRegistries(options: CliOptions, env: NodeJS.ProcessEnv = process.env): string[] {
	if (options.registries.length > 0) return registryUrls(options.registries);
	const fromEnv = env[REGISTRY_ENV]?.trim();
	if (fromEnv) return registryUrls(fromEnv.split(/[\s,]+/));
	let setting: unknown;
	try {
		const text = readFileSync(path.join(options.workspace, '.vscode', 'settings.json'), 'utf8');
		const parsed = parseJsonc(text).value;
		if (typeof parsed === 'object' && parsed !== null)
			setting = (parsed as Record<string, unknown>)['mcpSwitchboard.registry.url'];
	} catch {
		// No settings file: the official registry.
	}
	return registryUrls(setting);
}

/** How a listing runs, in a few words: "npm, remote streamable-http". */
function runsText(listing: RegistryListing): string {
	return installOptions(listing.server)
		.map((o) => (o.kind === 'streamable-http' || o.kind === 'sse' ? `remote ${o.kind}` : o.kind))
		.join(', ');
}

async function search(text: string | undefined, options: CliOptions, out: Output): Promise<number> {
	const urls = cliRegistries(options);
	const result = await searchRegistries(urls, text);
	for (const failure of result.failures) out.error(`error: ${failure.message}`);
	for (const invalid of result.invalid)
		out.error(
			`note: '${invalid.name}' in ${invalid.registry} was left out: its server.json is not valid (${invalid.problem})`,
		);
	const lines: string[] = [];
	for (const listing of result.servers) {
		const status =
			listing.status === 'deprecated' ? `  DEPRECATED${listing.statusMessage ? `: ${listing.statusMessage}` : ''}` : '';
		lines.push(
			`${listing.server.name}  ${listing.server.version}  ${runsText(listing) || 'no way to run it listed'}${status}`,
		);
		lines.push(`    ${listing.server.description}`);
	}
	if (result.servers.length === 0 && result.failures.length < urls.length)
		lines.push(`No servers${text ? ` match '${text}'` : ''} in ${urls.join(', ')}.`);
	out.result(
		lines.join('\n'),
		result.servers.map((l) => ({
			name: l.server.name,
			title: l.server.title,
			description: l.server.description,
			version: l.server.version,
			status: l.status,
			statusMessage: l.statusMessage,
			runs: installOptions(l.server).map((o) => o.label),
			registry: l.registry,
		})),
	);
	return result.failures.length === urls.length ? EXIT.failed : EXIT.ok;
}

/** The field an `--input` names: its full id, or the part after the server's key (`env.API_KEY`), or its last part. */
function fieldFor(plan: InstallPlan, id: string): InstallField | undefined {
	return (
		plan.fields.find((f) => f.id === id) ??
		plan.fields.find((f) => f.id === `${plan.key}.${id}`) ??
		plan.fields.find((f) => f.id.split('.').pop() === id)
	);
}

async function confirm(question: string): Promise<boolean> {
	const rl = createInterface({ input: process.stdin, output: process.stderr });
	try {
		return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
	} finally {
		rl.close();
	}
}

async function add(
	command: { server: string; version: string | undefined },
	options: CliOptions,
	out: Output,
): Promise<number> {
	const urls = cliRegistries(options);
	const listing = await findServer(urls, command.server, command.version ?? 'latest');
	if (listing.status === 'deprecated')
		out.error(
			`warning: '${listing.server.name}' is deprecated${listing.statusMessage ? `: ${listing.statusMessage}` : ''}`,
		);
	const plan = await prepareInstall(listing, { storage: userStateDir() });
	// The form's answers: each optional value's default, then what --input gives.
	const answers = new Map<string, string>();
	for (const field of plan.fields)
		if (field.default !== undefined && !field.required) answers.set(field.id, field.default);
	const notWritten: string[] = [];
	for (const [id, value] of options.inputs) {
		const field = fieldFor(plan, id);
		if (!field) {
			out.error(
				`mcp-switchboard: '${listing.server.name}' has no value '${id}'${plan.fields.length > 0 ? `; its values: ${plan.fields.map((f) => f.id).join(', ')}` : ''}`,
			);
			return EXIT.usage;
		}
		if (field.secret) notWritten.push(field.id);
		else answers.set(field.id, value);
	}
	const built = buildEntry(plan, answers);
	const file = path.join(path.resolve(options.workspace), '.vscode', 'mcp.json');
	let text = '';
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
	}
	const parsed = text.trim() === '' ? { value: {} } : parseJsonc(text);
	if (parsed.error !== undefined) {
		out.error(`mcp-switchboard: ${file} is not valid JSON (${parsed.error}); nothing was written`);
		return EXIT.usage;
	}
	const servers = (parsed.value as { servers?: Record<string, { registry?: { name?: string } }> }).servers ?? {};
	const existing = servers[plan.key];
	if (existing && existing.registry?.name !== listing.server.name) {
		out.error(
			`mcp-switchboard: ${file} already has a server named '${plan.key}' that is not ${listing.server.name}; nothing was written`,
		);
		return EXIT.usage;
	}
	const shown = [
		`${existing ? 'Update' : 'Add'} '${plan.key}' (${listing.server.name} ${listing.server.version}, ${plan.kind}) in ${file}:`,
		...describeImport(built.entry).map((line) => `  ${line}`),
		...built.inputs.map(
			(input) =>
				`  Asks when it starts: ${input.id}${input.type === 'promptString' && input.password ? ' (secret)' : ''} — --input ${input.id}=… or ${inputEnvName(input.id)}`,
		),
	];
	if (!options.yes) {
		if (!process.stdin.isTTY || options.json || options.noInput) {
			out.error(`${shown.join('\n')}\nmcp-switchboard: pass --yes to write it (nothing was written)`);
			return EXIT.usage;
		}
		process.stderr.write(`${shown.join('\n')}\n`);
		if (!(await confirm('Write it?'))) {
			out.error('Nothing was written.');
			return EXIT.ok;
		}
	}
	let next = changeMcpJson(text, { kind: 'write', entries: { [plan.key]: built.entry } });
	next = addMcpJsonInputs(next, built.inputs);
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, next);
	for (const id of notWritten)
		out.error(
			`note: the secret ${id} was not written; pass it when the server runs (--input ${id}=… or ${inputEnvName(id)})`,
		);
	out.result(`${shown.join('\n').replace(/^(Add|Update) /, (m) => (m === 'Add ' ? 'Added ' : 'Updated '))}`, {
		name: plan.key,
		file,
		entry: built.entry,
		inputs: built.inputs,
		registry: listing.registry,
		version: listing.server.version,
	});
	return EXIT.ok;
}

/** Runs `search` or `add`. A registry that cannot be reached, a bad server.json, a checksum or a missing runtime: 1. */
export async function runRegistryCommand(
	command: Extract<Command, { name: 'search' | 'add' }>,
	options: CliOptions,
	out: Output,
): Promise<number> {
	try {
		return command.name === 'search' ? await search(command.text, options, out) : await add(command, options, out);
	} catch (error) {
		out.error(`mcp-switchboard: ${errorMessage(error)}`);
		return error instanceof RegistryError && error.kind === 'notFound' ? EXIT.usage : EXIT.failed;
	}
}
