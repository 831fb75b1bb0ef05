// Part of `npm run lint`: fails when a tracked text file still holds a merge's conflict markers (a line starting
// with `<<<<<<< ` or `>>>>>>> `). ESLint sees only code and the typecheck only TypeScript: the README carried an
// unresolved conflict, two halves of one paragraph, through several sessions before anyone noticed.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const marker = /^(<<<<<<<|>>>>>>>) /m;
/** Generated or installed folders, never written by hand. */
const skipped = new Set(['.git', 'node_modules', 'dist', 'out', '.bench', '.vscode-test', 'test-results']);

/** Without git (a copy of the folder, not a clone): every file outside the generated folders. */
function walk(dir) {
	return readdirSync(dir).flatMap((name) => {
		if (skipped.has(name)) return [];
		const path = join(dir, name);
		return statSync(path).isDirectory() ? walk(path) : [path];
	});
}

let found;
try {
	// -I skips binary files; exit status 1 means no match.
	found = execFileSync('git', ['grep', '-n', '-I', '-E', '^(<<<<<<<|>>>>>>>) '], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	})
		.trim()
		.split('\n');
} catch (error) {
	if (error.status === 1) {
		found = [];
	} else {
		found = walk(root)
			.filter((file) => {
				const bytes = readFileSync(file);
				return !bytes.includes(0) && marker.test(bytes.toString('utf8'));
			})
			.map((file) => relative(root, file));
	}
}
if (found.length > 0) {
	process.stderr.write(`conflict-markers: unresolved merge conflicts:\n${found.join('\n')}\n`);
	process.exit(1);
}
console.log('conflict-markers: none found');
