/**
 * From a registry's `server.json` to a server entry, shared by the extension and the command line. A plan says how
 * the server runs (npm → `npx -y pkg@version`, pypi → `uvx pkg==version`, oci → `docker run -i --rm image:tag`,
 * nuget → `dnx pkg@version --yes`, a remote → an `http`/`sse` entry; mcpb bundles are unpacked first, mcpb.ts) and
 * which values the user may or must give (environment variables, headers, arguments, `{variables}`), as fields.
 * `buildEntry` then turns the answers into the entry: a secret is never written, it becomes `${input:id}` with a
 * password input definition; a required value nobody gave becomes `${input:id}` too (asked when the server starts);
 * an optional value nobody gave is left out, so the server's own default applies.
 */
import type { InputDefinition } from '../config';
import type { Argument, Input, KeyValueInput, Package, Remote, ServerJson } from './serverJson';

/** A value the user may give at install time. `id` is the `${input:id}` it becomes when it is not written. */
export interface InstallField {
	id: string;
	/** What it is, for a form: "API_KEY (environment variable)", "--port (argument)". */
	label: string;
	description?: string;
	required: boolean;
	secret: boolean;
	default?: string;
	choices?: string[];
	/** The registry's format: string, number, boolean or filepath. */
	format?: string;
	placeholder?: string;
}

/** A piece of a value: literal text or a field's answer. */
export type Piece = string | { field: string };

/** Words of a command line that are there only when their condition holds. */
interface ArgSlot {
	words: Piece[][];
	/** An optional value: the words are left out when this field has no answer (or, with `flag`, is not "true"). */
	optional?: { field: string; flag?: boolean };
}

/** What a registry entry records in the server entry, so Update can find newer versions. */
export interface RegistryRef {
	name: string;
	version: string;
	url: string;
}

/** A runnable plan for one way of running a server. */
export interface InstallPlan {
	/** A server key for the settings: the part of the registry name after the slash. */
	key: string;
	/** npm, pypi, oci, nuget, mcpb, or the remote's transport (streamable-http, sse). */
	kind: string;
	/** The program that must be on PATH (npx, uvx, docker, dnx), when there is one to check. */
	runtime?: string;
	transport: 'stdio' | 'http' | 'sse';
	command?: string;
	args: ArgSlot[];
	url?: Piece[];
	env: { name: string; value: Piece[]; optional?: string }[];
	headers: { name: string; value: Piece[]; optional?: string }[];
	fields: InstallField[];
	registry: RegistryRef;
	/** For an mcpb package: the bundle to download and check before the plan can run (see mcpb.ts). */
	bundle?: { url: string; sha256: string };
}

/** One way to run a server, for a choice between a package and a remote. */
export interface InstallOption {
	index: number;
	kind: string;
	/** "npm @scope/pkg@1.2.3", "streamable-http https://…". */
	label: string;
	supported: boolean;
	/** Why an unsupported option cannot be used. */
	reason?: string;
}

const PACKAGE_KINDS = new Set(['npm', 'pypi', 'oci', 'nuget', 'mcpb']);

/** The ways `server` can run: its packages first (local), then its remotes. */
export function installOptions(server: ServerJson): InstallOption[] {
	const options: InstallOption[] = [];
	(server.packages ?? []).forEach((pkg, index) => {
		const version = pkg.version ? `@${pkg.version}` : '';
		const option: InstallOption = {
			index,
			kind: pkg.registryType,
			label: `${pkg.registryType} ${pkg.identifier}${pkg.registryType === 'mcpb' ? '' : version}`,
			supported: true,
		};
		if (!PACKAGE_KINDS.has(pkg.registryType)) {
			option.supported = false;
			option.reason = `packages of type '${pkg.registryType}' are not supported (npm, pypi, oci, nuget and mcpb are)`;
		} else if (pkg.transport.type !== 'stdio') {
			option.supported = false;
			option.reason = `the package serves ${pkg.transport.type} on a port of its own; use its remote, or run it yourself and add its URL`;
		} else if (pkg.registryType === 'mcpb' && !pkg.fileSha256) {
			option.supported = false;
			option.reason = 'the mcpb package has no fileSha256 to check the download against';
		}
		options.push(option);
	});
	(server.remotes ?? []).forEach((remote, index) => {
		options.push({
			index: (server.packages?.length ?? 0) + index,
			kind: remote.type,
			label: `${remote.type} ${remote.url}`,
			supported: true,
		});
	});
	return options;
}

/** The key a server gets in the settings: the last part of its registry name, in safe characters. */
export function serverKey(name: string): string {
	const tail = name.split('/').pop() ?? name;
	return (
		tail
			.toLowerCase()
			.replace(/[^a-z0-9_.-]+/g, '-')
			.replace(/^-+|-+$/g, '') || 'server'
	);
}

/** Builds fields and pieces for one plan; ids are `<key>.<where>` in the characters `${input:…}` allows. */
class PlanBuilder {
	readonly fields: InstallField[] = [];
	constructor(private readonly key: string) {}

	private id(where: string): string {
		return `${this.key}.${where}`.replace(/[^A-Za-z0-9_.-]+/g, '_');
	}

	private field(where: string, label: string, input: Input): string {
		const id = this.id(where);
		if (this.fields.some((f) => f.id === id)) return id;
		const field: InstallField = { id, label, required: input.isRequired === true, secret: input.isSecret === true };
		if (input.description) field.description = input.description;
		if (input.default !== undefined) field.default = input.default;
		if (input.choices && input.choices.length > 0) field.choices = input.choices;
		if (input.format) field.format = input.format;
		if (input.placeholder) field.placeholder = input.placeholder;
		this.fields.push(field);
		return id;
	}

	/**
	 * The pieces of an input's value: a fixed `value` with its `{variables}` as fields (an unknown `{name}` stays as
	 * written, as the schema says), or, without a value, one field for the whole thing.
	 */
	value(input: Input & { variables?: Record<string, Input> }, where: string, label: string): Piece[] {
		if (input.value === undefined) return [{ field: this.field(where, label, input) }];
		const pieces: Piece[] = [];
		let last = 0;
		for (const match of input.value.matchAll(/\{([A-Za-z0-9_.-]+)\}/g)) {
			const variable = input.variables?.[match[1] as string];
			if (!variable) continue;
			if (match.index > last) pieces.push(input.value.slice(last, match.index));
			pieces.push({ field: this.field(match[1] as string, `${match[1]} (in ${label})`, variable) });
			last = match.index + match[0].length;
		}
		if (last < input.value.length) pieces.push(input.value.slice(last));
		return pieces;
	}

	/** An optional field the value consists of, when leaving it out should leave out the whole value. */
	optionalField(input: Input, pieces: Piece[]): string | undefined {
		if (input.value !== undefined || input.isRequired === true || input.isSecret === true) return undefined;
		const only = pieces.length === 1 ? pieces[0] : undefined;
		return typeof only === 'object' ? only.field : undefined;
	}

	argument(arg: Argument, where: string): ArgSlot {
		if (arg.type === 'positional') {
			const label = `${arg.valueHint ?? `argument ${where}`} (argument)`;
			const pieces = this.value(arg, `arg.${arg.valueHint ?? where}`, label);
			const optional = this.optionalField(arg, pieces);
			return optional ? { words: [pieces], optional: { field: optional } } : { words: [pieces] };
		}
		const label = `${arg.name} (argument)`;
		const where2 = `arg.${arg.name.replace(/^-+/, '')}`;
		if (arg.format === 'boolean' && arg.value === undefined) {
			const field = this.field(where2, label, arg);
			return { words: [[arg.name]], optional: { field, flag: true } };
		}
		const pieces = this.value(arg, where2, label);
		const optional = this.optionalField(arg, pieces);
		const slot: ArgSlot = { words: [[arg.name], pieces] };
		if (optional) slot.optional = { field: optional };
		return slot;
	}

	pair(input: KeyValueInput, group: 'env' | 'header'): { name: string; value: Piece[]; optional?: string } {
		const label = `${input.name} (${group === 'env' ? 'environment variable' : 'header'})`;
		const value = this.value(input, `${group}.${input.name}`, label);
		const optional = this.optionalField(input, value);
		return optional ? { name: input.name, value, optional } : { name: input.name, value };
	}
}

function words(...texts: string[]): ArgSlot[] {
	return texts.map((text) => ({ words: [[text]] }));
}

/** The command and its first words for a package of `pkg.registryType`, with `runtimeHint` honoured. */
function launcher(pkg: Package): { command: string; before: ArgSlot[]; target: ArgSlot[]; runtime: string } {
	const version = pkg.version;
	const hint = pkg.runtimeHint?.trim();
	switch (pkg.registryType) {
		case 'npm': {
			const spec = version ? `${pkg.identifier}@${version}` : pkg.identifier;
			const command = hint || 'npx';
			// npx asks before installing a package it does not have; -y answers for the user, who chose to install.
			return { command, before: [], target: command === 'npx' ? words('-y', spec) : words(spec), runtime: command };
		}
		case 'pypi': {
			const spec = version ? `${pkg.identifier}==${version}` : pkg.identifier;
			const command = hint || 'uvx';
			return { command, before: [], target: words(spec), runtime: command };
		}
		case 'oci': {
			const image = version && !pkg.identifier.includes(':') ? `${pkg.identifier}:${version}` : pkg.identifier;
			const command = hint || 'docker';
			return { command, before: words('run', '-i', '--rm'), target: words(image), runtime: command };
		}
		case 'nuget': {
			const spec = version ? `${pkg.identifier}@${version}` : pkg.identifier;
			const command = hint || 'dnx';
			return { command, before: [], target: words(spec, '--yes'), runtime: command };
		}
		default:
			throw new Error(`packages of type '${pkg.registryType}' are not supported`);
	}
}

/**
 * The plan for option `index` of {@link installOptions} (default: the first supported one). Throws with a sentence
 * when the server has no way to run here. `registryUrl` is recorded in the entry for updates.
 */
export function planInstall(server: ServerJson, registryUrl: string, index?: number): InstallPlan {
	const options = installOptions(server);
	const option = index === undefined ? options.find((o) => o.supported) : options.find((o) => o.index === index);
	if (!option) {
		const reasons = options.map((o) => `${o.label}: ${o.reason ?? 'not supported'}`);
		throw new Error(
			`'${server.name}' has no package or remote this can run${reasons.length > 0 ? ` (${reasons.join('; ')})` : ' (its server.json lists none)'}`,
		);
	}
	if (!option.supported)
		throw new Error(`'${server.name}' cannot be installed as ${option.label}: ${option.reason ?? ''}`);
	const key = serverKey(server.name);
	const b = new PlanBuilder(key);
	const registry: RegistryRef = { name: server.name, version: server.version, url: registryUrl };
	const packageCount = server.packages?.length ?? 0;
	if (option.index >= packageCount) {
		const remote = server.remotes?.[option.index - packageCount] as Remote;
		const url = b.value({ value: remote.url, variables: remote.variables }, 'url', 'URL');
		const headers = (remote.headers ?? []).map((h) => b.pair(h, 'header'));
		return {
			key,
			kind: remote.type,
			transport: remote.type === 'sse' ? 'sse' : 'http',
			args: [],
			url,
			env: [],
			headers,
			fields: b.fields,
			registry,
		};
	}
	const pkg = server.packages?.[option.index] as Package;
	const env = (pkg.environmentVariables ?? []).map((v) => b.pair(v, 'env'));
	const runtimeArgs = (pkg.runtimeArguments ?? []).map((a, i) => b.argument(a, `runtime${i}`));
	const packageArgs = (pkg.packageArguments ?? []).map((a, i) => b.argument(a, String(i)));
	if (pkg.registryType === 'mcpb') {
		return {
			key,
			kind: 'mcpb',
			transport: 'stdio',
			args: packageArgs,
			env,
			headers: [],
			fields: b.fields,
			registry,
			bundle: { url: pkg.identifier, sha256: (pkg.fileSha256 ?? '').toLowerCase() },
		};
	}
	const run = launcher(pkg);
	// A container does not see the docker client's environment: each variable is passed in with -e NAME.
	const passEnv: ArgSlot[] =
		pkg.registryType === 'oci' && run.command === 'docker'
			? env.map((v) => {
					const slot: ArgSlot = { words: [['-e'], [v.name]] };
					if (v.optional) slot.optional = { field: v.optional };
					return slot;
				})
			: [];
	return {
		key,
		kind: pkg.registryType,
		runtime: run.runtime.split(/\s+/)[0] ?? run.runtime,
		transport: 'stdio',
		command: run.command,
		args: [...run.before, ...runtimeArgs, ...passEnv, ...run.target, ...packageArgs],
		env,
		headers: [],
		fields: b.fields,
		registry,
	};
}

/** An entry to write and the input definitions its `${input:…}` need. */
export interface BuiltEntry {
	entry: Record<string, unknown>;
	inputs: InputDefinition[];
}

/**
 * The server entry for `plan` with `answers` (field id → text). A secret field is always `${input:id}` (its answer,
 * if any, is the caller's to keep in secret storage); a required field without an answer is `${input:id}`; an
 * optional one without an answer leaves out what holds it. Only fields written as `${input:…}` get a definition.
 */
export function buildEntry(plan: InstallPlan, answers: ReadonlyMap<string, string>): BuiltEntry {
	const byId = new Map(plan.fields.map((f) => [f.id, f]));
	const asInput = new Set<string>();
	const answered = (id: string): boolean => {
		const field = byId.get(id);
		return field !== undefined && !field.secret && (answers.get(id) ?? '') !== '';
	};
	const text = (pieces: readonly Piece[]): string =>
		pieces
			.map((piece) => {
				if (typeof piece === 'string') return piece;
				if (answered(piece.field)) return answers.get(piece.field) as string;
				asInput.add(piece.field);
				return `\${input:${piece.field}}`;
			})
			.join('');
	// An optional value without an answer is left out; one made required (by the plan's fields) is asked at start.
	const present = (optional: string | undefined): boolean =>
		optional === undefined || answered(optional) || byId.get(optional)?.required === true;
	const entry: Record<string, unknown> = {};
	if (plan.transport === 'stdio') {
		entry.type = 'stdio';
		entry.command = plan.command;
		const args: string[] = [];
		for (const slot of plan.args) {
			if (slot.optional?.flag && (!answered(slot.optional.field) || answers.get(slot.optional.field) !== 'true'))
				continue;
			if (slot.optional && !present(slot.optional.field)) continue;
			if (slot.optional?.flag) args.push(...slot.words.map((w) => w.filter((p) => typeof p === 'string').join('')));
			else args.push(...slot.words.map(text));
		}
		entry.args = args;
		const env: Record<string, string> = {};
		for (const v of plan.env) if (present(v.optional)) env[v.name] = text(v.value);
		if (Object.keys(env).length > 0) entry.env = env;
	} else {
		entry.type = plan.transport;
		entry.url = text(plan.url ?? []);
		const headers: Record<string, string> = {};
		for (const h of plan.headers) if (present(h.optional)) headers[h.name] = text(h.value);
		if (Object.keys(headers).length > 0) entry.headers = headers;
	}
	entry.registry = { name: plan.registry.name, version: plan.registry.version, url: plan.registry.url };
	const inputs: InputDefinition[] = [];
	for (const field of plan.fields) {
		if (!asInput.has(field.id)) continue;
		const description = [field.label, field.description].filter(Boolean).join(': ');
		if (field.choices && !field.secret) {
			const input: InputDefinition = { type: 'pickString', id: field.id, description, options: field.choices };
			if (field.default !== undefined) input.default = field.default;
			inputs.push(input);
		} else {
			const input: InputDefinition = { type: 'promptString', id: field.id, description };
			if (field.secret) input.password = true;
			if (field.default !== undefined && !field.secret) input.default = field.default;
			inputs.push(input);
		}
	}
	return { entry, inputs };
}
