/**
 * The `mcp-switchboard` executable (dist/cli.js): starts the local servers the command will use (earlyStart.ts, a
 * small part of the command line bundled here), then, while they boot, loads the command line itself (dist/cli-main.js, see main.ts) with
 * V8's code cache, so a run after the first does not parse and compile half a megabyte of JavaScript again: on this
 * project's machine that is about a third of the command line's own start-up, and a command-line run is mostly
 * start-up. What Node 22's `module.enableCompileCache()` does, for the Node 20 the extension supports.
 *
 * The cache is one file in the user's cache folder, named after a hash of the code and the Node version, made after
 * the first run's command finished (so it holds the functions that run compiled, not only the top level). A missing,
 * stale or unwritable cache only costs the compile: V8 checks the data and rejects what does not fit, and a run whose
 * cache was rejected writes a new one. Set MCP_SWITCHBOARD_NO_CODE_CACHE=1 to load the code plainly.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { userCacheDir } from './cacheDir';
import { startServersEarly } from './earlyStart';
import type { RunHooks } from './session';

const argv = process.argv.slice(2);
const hooks: RunHooks = {};
// The servers the command will use start first, and boot while the rest of the command line loads (earlyStart.ts).
// MCP_SWITCHBOARD_NO_EARLY_START=1 starts them from the run instead, after loading (for comparison and diagnosis).
const early = process.env.MCP_SWITCHBOARD_NO_EARLY_START
	? Promise.resolve(undefined)
	: startServersEarly(argv, process.cwd());
void early.then((started) => {
	if (started && started.size > 0) hooks.early = started;
	(load() as typeof import('./main')).run(argv, hooks);
});

/** Loads dist/cli-main.js, with V8's code cache when there is one (see above), and returns its exports. */
function load(): unknown {
	const file = path.join(__dirname, 'cli-main.js');
	const source = readFileSync(file, 'utf8');
	const require_ = Module.createRequire(file);
	const mod = { exports: {} as unknown };
	if (process.env.MCP_SWITCHBOARD_NO_CODE_CACHE) {
		mod.exports = require_(file);
		return mod.exports;
	}
	const dir = userCacheDir();
	const key = createHash('sha256')
		.update(source)
		.update(process.version)
		.update(process.arch)
		.digest('base64url')
		.slice(0, 16);
	const cacheFile = path.join(dir, `cli-${key}.v8cache`);
	let cachedData: Buffer | undefined;
	try {
		cachedData = readFileSync(cacheFile);
	} catch {
		cachedData = undefined;
	}
	const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
	if (cachedData === undefined || script.cachedDataRejected === true) {
		let written = false;
		const write = () => {
			if (!written) writeCache(script, dir, cacheFile);
			written = true;
		};
		// While the first server boots the process waits anyway: the cache is written then, holding the code that ran
		// before the spawn (the part of a later run nothing else overlaps). A command that starts no server writes it on exit.
		hooks.serverSpawned = write;
		process.once('exit', write);
	}
	const wrapper = script.runInThisContext() as (
		exports: unknown,
		require: NodeJS.Require,
		module: unknown,
		filename: string,
		dirname: string,
	) => void;
	wrapper.call(mod.exports, mod.exports, require_, mod, file, path.dirname(file));
	return mod.exports;
}

/** Writes the compiled code (aside, then renamed: two runs at once never leave half a file) and drops older caches. */
function writeCache(script: vm.Script, dir: string, cacheFile: string): void {
	try {
		mkdirSync(dir, { recursive: true });
		const temporary = `${cacheFile}.${process.pid}.tmp`;
		writeFileSync(temporary, script.createCachedData());
		renameSync(temporary, cacheFile);
		for (const name of readdirSync(dir)) {
			if (name.startsWith('cli-') && name.endsWith('.v8cache') && path.join(dir, name) !== cacheFile)
				unlinkSync(path.join(dir, name));
		}
	} catch {
		// A read-only or full cache folder: the next run compiles again, nothing else changes.
	}
}
