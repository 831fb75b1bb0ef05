/**
 * Whether the program a registry package runs with (npx, uvx, docker, dnx) is on PATH, and what to say when it is
 * not: which program, and how to get it. Checked before anything is written, so a missing runtime never leaves an
 * entry that can only fail.
 */
import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';

/** How to get each runtime a registry package may need. */
const HOW_TO_GET: Record<string, string> = {
	npx: 'install Node.js (https://nodejs.org), which includes npm and npx',
	node: 'install Node.js (https://nodejs.org)',
	uvx: 'install uv (https://docs.astral.sh/uv/getting-started/installation/), which includes uvx; without uv, `pip install <package>` and run its command yourself',
	uv: 'install uv (https://docs.astral.sh/uv/getting-started/installation/)',
	python: 'install Python 3 (https://www.python.org/downloads/)',
	python3: 'install Python 3 (https://www.python.org/downloads/)',
	docker: 'install Docker (https://docs.docker.com/get-docker/) and start it',
	dnx: 'install the .NET 10 SDK or later (https://dotnet.microsoft.com/download), which includes dnx',
};

/** The full path of `command` on `env.PATH` (with PATHEXT on Windows), or undefined when it is not there. */
export function findOnPath(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
	if (command.includes('/') || command.includes('\\')) return isExecutable(command) ? command : undefined;
	const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
	const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';') : [''];
	for (const dir of dirs) {
		for (const ext of exts) {
			const candidate = path.join(dir, command + ext);
			if (isExecutable(candidate)) return candidate;
		}
	}
	return undefined;
}

function isExecutable(file: string): boolean {
	try {
		if (!statSync(file).isFile()) return false;
		accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

/** The sentence for a runtime that is not on PATH: which program, and how to get it. */
export function missingRuntimeMessage(server: string, runtime: string): string {
	const how = HOW_TO_GET[runtime] ?? `install it and make sure it is on PATH`;
	return `'${server}' runs with ${runtime}, which was not found on PATH: ${how}. Nothing was installed.`;
}
