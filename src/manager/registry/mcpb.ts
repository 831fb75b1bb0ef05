/**
 * `.mcpb` bundles (MCP Bundles, formerly `.dxt`: a ZIP with a `manifest.json` and the server's files): download,
 * check the SHA-256 the registry lists (`fileSha256`) before anything is unpacked, unpack into a folder of the
 * caller's storage, and complete the install plan from the manifest's `server.mcp_config` (or its `entry_point`).
 * Manifest format: https://github.com/modelcontextprotocol/mcpb/blob/main/MANIFEST.md. `${__dirname}` becomes the
 * unpacked folder; `${user_config.KEY}` becomes a field of the plan (a `sensitive` one a secret).
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile, chmod, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { errorMessage } from '../../common/errors';
import type { InstallField, InstallPlan, Piece } from './installPlan';
import { readZip } from './zipReader';

/** The largest bundle downloaded, in bytes. */
const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;

/** A bundle's download or check failed; nothing was unpacked. */
export class BundleError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'BundleError';
	}
}

interface UserConfigItem {
	type?: string;
	title?: string;
	description?: string;
	required?: boolean;
	sensitive?: boolean;
	default?: unknown;
}

interface Manifest {
	name?: string;
	server?: {
		type?: string;
		entry_point?: string;
		mcp_config?: { command?: string; args?: unknown[]; env?: Record<string, unknown> };
	};
	user_config?: Record<string, UserConfigItem>;
}

/** Downloads `url` (at most MAX_BUNDLE_BYTES) and checks its SHA-256 against `sha256`. */
export async function downloadBundle(
	url: string,
	sha256: string,
	options: { timeoutMs?: number; fetch?: typeof fetch; signal?: AbortSignal } = {},
): Promise<Buffer> {
	const timeout = AbortSignal.timeout(options.timeoutMs ?? 120_000);
	let bytes: Buffer;
	try {
		const response = await (options.fetch ?? fetch)(url, {
			signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
		});
		if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`);
		const length = Number(response.headers.get('content-length') ?? 0);
		if (length > MAX_BUNDLE_BYTES) throw new Error(`it is larger than ${MAX_BUNDLE_BYTES} bytes`);
		bytes = Buffer.from(await response.arrayBuffer());
		if (bytes.length > MAX_BUNDLE_BYTES) throw new Error(`it is larger than ${MAX_BUNDLE_BYTES} bytes`);
	} catch (error) {
		const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
		throw new BundleError(
			`Could not download the bundle ${url}: ${errorMessage(error)}${cause}. Nothing was installed.`,
		);
	}
	const actual = createHash('sha256').update(bytes).digest('hex');
	if (actual !== sha256.toLowerCase())
		throw new BundleError(
			`The bundle downloaded from ${url} has SHA-256 ${actual}, but the registry lists ${sha256}: it may have been changed or damaged, so it was not installed.`,
		);
	return bytes;
}

/**
 * Unpacks `bundle` into `<storage>/mcpb/<key>-<first 16 hex of its hash>` (replacing an earlier copy of the same
 * bundle) and returns the folder and its manifest. The files are written to a temporary folder first, so a failed
 * unpack leaves nothing behind.
 */
export async function unpackBundle(
	bundle: Buffer,
	storage: string,
	key: string,
): Promise<{ dir: string; manifest: Manifest }> {
	const hash = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
	const root = path.join(storage, 'mcpb');
	const dir = path.join(root, `${key}-${hash}`);
	const temp = `${dir}.partial-${process.pid}`;
	let files;
	try {
		files = readZip(bundle);
	} catch (error) {
		throw new BundleError(`The bundle is not a readable archive: ${errorMessage(error)}. Nothing was installed.`);
	}
	const manifestFile = files.find((f) => f.path === 'manifest.json');
	if (!manifestFile) throw new BundleError('The bundle has no manifest.json. Nothing was installed.');
	let manifest: Manifest;
	try {
		manifest = JSON.parse(manifestFile.data.toString('utf8')) as Manifest;
	} catch (error) {
		throw new BundleError(
			`The bundle's manifest.json is not valid JSON (${errorMessage(error)}). Nothing was installed.`,
		);
	}
	await rm(temp, { recursive: true, force: true });
	try {
		for (const file of files) {
			const target = path.join(temp, ...file.path.split('/'));
			await mkdir(path.dirname(target), { recursive: true });
			await writeFile(target, file.data);
			if (file.mode & 0o111) await chmod(target, file.mode);
		}
		await rm(dir, { recursive: true, force: true });
		await rename(temp, dir);
	} catch (error) {
		await rm(temp, { recursive: true, force: true });
		throw error;
	}
	return { dir, manifest };
}

/** The pieces of a manifest string: `${__dirname}` made the folder, `${user_config.KEY}` made fields. */
function manifestPieces(
	text: string,
	dir: string,
	key: string,
	userConfig: Record<string, UserConfigItem>,
	fields: InstallField[],
): Piece[] {
	const pieces: Piece[] = [];
	let last = 0;
	for (const match of text.matchAll(/\$\{(__dirname|user_config\.([A-Za-z0-9_-]+))\}/g)) {
		if (match.index > last) pieces.push(text.slice(last, match.index));
		last = match.index + match[0].length;
		if (match[1] === '__dirname') {
			pieces.push(dir);
			continue;
		}
		const name = match[2] as string;
		const item = userConfig[name] ?? {};
		const id = `${key}.${name}`.replace(/[^A-Za-z0-9_.-]+/g, '_');
		if (!fields.some((f) => f.id === id)) {
			const field: InstallField = {
				id,
				label: `${item.title ?? name} (setting of the bundle)`,
				required: item.required === true,
				secret: item.sensitive === true,
			};
			if (item.description) field.description = item.description;
			if (typeof item.default === 'string' || typeof item.default === 'number' || typeof item.default === 'boolean')
				field.default = String(item.default);
			if (item.type === 'boolean' || item.type === 'number') field.format = item.type;
			if (item.type === 'directory' || item.type === 'file') field.format = 'filepath';
			fields.push(field);
		}
		pieces.push({ field: id });
	}
	if (last < text.length) pieces.push(text.slice(last));
	return pieces;
}

/** The default launch of a manifest without `mcp_config`, by `server.type`. */
function defaultLaunch(manifest: Manifest): { command: string; args: string[] } {
	const entry = `\${__dirname}/${manifest.server?.entry_point ?? ''}`;
	switch (manifest.server?.type) {
		case 'node':
			return { command: 'node', args: [entry] };
		case 'python':
			return { command: 'python3', args: [entry] };
		case 'uv':
			return { command: 'uv', args: ['run', '--directory', '${__dirname}', entry] };
		case 'binary':
			return { command: entry, args: [] };
		default:
			throw new BundleError(
				`The bundle's manifest.json has no server.mcp_config and an unknown server.type '${manifest.server?.type ?? ''}'. Nothing was installed.`,
			);
	}
}

/**
 * The plan of an mcpb package completed with its unpacked bundle: the manifest's command and arguments (then the
 * registry's package arguments), its environment (then the registry's), and the bundle's settings as fields.
 */
export function completeBundlePlan(plan: InstallPlan, dir: string, manifest: Manifest): InstallPlan {
	const launch = manifest.server?.mcp_config?.command
		? {
				command: manifest.server.mcp_config.command,
				args: (manifest.server.mcp_config.args ?? []).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))),
			}
		: defaultLaunch(manifest);
	const userConfig = manifest.user_config ?? {};
	const fields = [...plan.fields];
	const pieces = (text: string) => manifestPieces(text, dir, plan.key, userConfig, fields);
	const command = pieces(launch.command)
		.map((p) => (typeof p === 'string' ? p : ''))
		.join('');
	// A value that is only an optional setting is left out when the setting has no answer (the server's default).
	const optionalOf = (value: Piece[]): string | undefined => {
		const only = value.length === 1 ? value[0] : undefined;
		if (typeof only !== 'object') return undefined;
		const field = fields.find((f) => f.id === only.field);
		return field && !field.required && !field.secret ? field.id : undefined;
	};
	const args = launch.args.map((a) => {
		const words = pieces(a);
		const optional = optionalOf(words);
		return optional ? { words: [words], optional: { field: optional } } : { words: [words] };
	});
	const env = Object.entries(manifest.server?.mcp_config?.env ?? {}).map(([name, value]) => {
		const words = pieces(typeof value === 'string' ? value : JSON.stringify(value));
		const optional = optionalOf(words);
		return optional ? { name, value: words, optional } : { name, value: words };
	});
	const runtime = path.isAbsolute(command) ? undefined : command;
	const completed: InstallPlan = {
		...plan,
		command,
		args: [...args, ...plan.args],
		env: [...env, ...plan.env.filter((v) => !env.some((e) => e.name === v.name))],
		fields,
	};
	delete completed.bundle;
	if (runtime) completed.runtime = runtime;
	return completed;
}

/** The bundles unpacked in `storage` (for a clean-up command or a test). */
export async function unpackedBundles(storage: string): Promise<string[]> {
	try {
		return (await readdir(path.join(storage, 'mcpb'))).filter((name) => !name.includes('.partial-'));
	} catch {
		return [];
	}
}
