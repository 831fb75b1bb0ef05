// Part of `npm run lint`: fails when a tracked text file still holds a merge's conflict markers (a line starting
// with `<<<<<<< ` or `>>>>>>> `). ESLint sees only code and the typecheck only TypeScript: the README carried an
// unresolved conflict, two halves of one paragraph, through several sessions before anyone noticed.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
let found = '';
try {
	// -I skips binary files; exit status 1 means no match.
	found = execFileSync('git', ['grep', '-n', '-I', '-E', '^(<<<<<<<|>>>>>>>) '], { cwd: root, encoding: 'utf8' });
} catch (error) {
	if (error.status !== 1) throw error;
}
if (found) {
	process.stderr.write(`conflict-markers: unresolved merge conflicts:\n${found}`);
	process.exit(1);
}
console.log('conflict-markers: none in tracked files');
