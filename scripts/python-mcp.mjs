// The Python MCP SDK (`mcp` 2.3.0, a 2026-07-28 server nobody here wrote) and the standalone FastMCP framework
// (`fastmcp` 4.0.10, another author's server and client on top of it) in a venv under the cache folder, for the
// integration tests (the peers suite) and the benchmark. Creates it when missing, adds what is missing to an existing
// one; prints the interpreter's path. Node API: pythonMcp().
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PYTHON_MCP_VERSION = '2.3.0';
/** fastmcp 4.0.10 installs beside mcp 2.3.0 without changing it (pip's resolver keeps mcp as it is). */
export const FASTMCP_VERSION = '4.0.10';
const venv = join(
	process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
	'mcp-switchboard',
	`py-mcp-${PYTHON_MCP_VERSION}`,
);

/** The venv's python with `mcp` and `fastmcp` importable; installs them first when needed. Throws with pip's output when that fails. */
export function pythonMcp() {
	const python = join(venv, 'bin', 'python');
	const has = (name, version) =>
		spawnSync(python, ['-c', `import importlib.metadata as m, sys; sys.exit(m.version('${name}') != '${version}')`])
			.status === 0;
	const check = () => existsSync(python) && has('mcp', PYTHON_MCP_VERSION) && has('fastmcp', FASTMCP_VERSION);
	if (check()) return python;
	const run = (command, args) => {
		const result = spawnSync(command, args, { encoding: 'utf8' });
		if (result.status !== 0)
			throw new Error(
				`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout || result.error}`,
			);
	};
	if (!existsSync(python)) run('python3', ['-m', 'venv', venv]);
	// Only the local mirror is reachable here: no retries against an index that cannot answer.
	const local = existsSync('/opt/pypi/simple') ? ['--index-url', 'file:///opt/pypi/simple'] : [];
	run(join(venv, 'bin', 'pip'), [
		'install',
		'--quiet',
		'--retries',
		'0',
		'--timeout',
		'15',
		...local,
		`mcp==${PYTHON_MCP_VERSION}`,
		`fastmcp==${FASTMCP_VERSION}`,
	]);
	if (!check())
		throw new Error(
			`mcp ${PYTHON_MCP_VERSION} and fastmcp ${FASTMCP_VERSION} are not both installed in ${venv} after pip install`,
		);
	return python;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	console.log(pythonMcp());
}
