// `npm run release -- <version> --dry-run` (scripts/release.mjs) as a maintainer runs it in the repository: it
// prints the plan with both artifacts it would publish, built at the new version, and leaves git and every file as
// they were. A version it must refuse is refused before anything is built.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const repo = process.cwd();

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

function release(args: string[]): Promise<Run> {
	return new Promise((resolve, reject) => {
		const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
		const child = spawn(process.execPath, ['scripts/release.mjs', ...args], {
			cwd: repo,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		// A guard against a hung child, not a timing assertion: packaging is slow on a loaded machine.
		const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
		child.on('error', reject);
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
	});
}

/** What git and the release's own files look like: compared before and after a dry run. */
function snapshot(): Record<string, string> {
	const git = (args: string[]): string => spawnSync('git', args, { cwd: repo, encoding: 'utf8' }).stdout;
	const files = ['package.json', 'packages/cli/package.json', 'package-lock.json', 'CHANGELOG.md'];
	return {
		status: git(['status', '--porcelain', '--untracked-files=all']),
		head: git(['rev-parse', 'HEAD']),
		tags: git(['tag', '--list']),
		...Object.fromEntries(files.map((f) => [f, readFileSync(join(repo, f), 'utf8')])),
	};
}

test('release --dry-run prints the plan with the .vsix and the npm tarball at the new version and changes nothing', async () => {
	const current = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
	const [major = 0, minor = 0] = current.split('.').map(Number);
	const next = `${major}.${minor + 1}.0`;
	const before = snapshot();
	const result = await release([next, '--dry-run']);
	assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
	const plan = result.stdout;
	assert.match(plan, new RegExp(`^release plan for ${next} \\(dry run: nothing was changed\\)$`, 'm'));
	assert.match(
		plan,
		new RegExp(`^ {2}version +${current} → ${next} in package\\.json, packages/cli/package\\.json`, 'm'),
	);
	assert.match(
		plan,
		new RegExp(`^ {2}vsix +mcp-switchboard-${next}\\.vsix \\(\\d+ KB\\) → Visual Studio Marketplace`, 'm'),
	);
	assert.match(plan, /Open VSX \(ovsx publish\)$/m);
	assert.match(plan, new RegExp(`^ {2}npm +mcp-switchboard-${next}\\.tgz \\(\\d+ KB\\) → npm \\(npm publish\\)`, 'm'));
	assert.match(plan, new RegExp(`^ {2}git +commit "Release ${next}", tag v${next}$`, 'm'));
	assert.match(plan, /^ {2}tests +skipped \(--dry-run or --skip-tests\)/m, 'the plan says the tests did not run');
	assert.deepEqual(snapshot(), before, 'git status, HEAD, tags and the versioned files are as before the dry run');
});

test('release refuses a version that is not newer, or not x.y.z, before building anything', async () => {
	const current = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
	const same = await release([current, '--dry-run']);
	assert.equal(same.code, 1);
	assert.match(same.stderr, new RegExp(`${current.replaceAll('.', '\\.')} is not newer than the current`));
	const tagged = await release(['1.0.0-beta.1', '--dry-run']);
	assert.equal(tagged.code, 1);
	assert.match(tagged.stderr, /"1\.0\.0-beta\.1" is not a version x\.y\.z/);
	assert.equal(same.stdout + tagged.stdout, '', 'no plan and no packaging output');
});
