// `npm run release -- <version>` (scripts/release.mjs) as a maintainer runs it. The dry run in the repository itself:
// it prints the plan with both artifacts it would publish, built at the new version, and leaves git and every file as
// they were. The real release in a throwaway copy of the repository (its tracked files as they are now, committed into
// a new git repository): it bumps, promotes the changelog, packages, commits and tags; the release workflow's
// `--ci` step there refuses a tag that is not the version. A version it must refuse is refused before anything is
// built.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';

const repo = process.cwd();

interface Run {
	code: number | null;
	stdout: string;
	stderr: string;
}

function release(args: string[], cwd = repo, extraEnv: Record<string, string> = {}): Promise<Run> {
	return new Promise((resolve, reject) => {
		const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
		const child = spawn(process.execPath, ['scripts/release.mjs', ...args], {
			cwd,
			env: { ...env, ...extraEnv },
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
	assert.match(
		plan,
		new RegExp(
			`^ {2}npm +mcp-switchboard-${next}\\.tgz \\(\\d+ KB\\) → npm \\(npm publish\\), package mcp-switchboard; npm publish --dry-run accepts it$`,
			'm',
		),
	);
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

const scratch = mkdtempSync(join(tmpdir(), 'release-it-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A new git repository holding the tracked files of this one as they are now, with its node_modules linked. */
function copyOfRepository(): string {
	const copy = join(scratch, 'repo');
	const files = spawnSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' }).stdout.split('\0');
	for (const file of files.filter((f) => f && existsSync(join(repo, f)))) {
		mkdirSync(dirname(join(copy, file)), { recursive: true });
		copyFileSync(join(repo, file), join(copy, file));
	}
	symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'));
	const git = (args: string[]): void => {
		const result = spawnSync('git', args, { cwd: copy, encoding: 'utf8' });
		assert.equal(result.status, 0, `git ${args.join(' ')}: ${result.stderr}`);
	};
	git(['init', '-q', '-b', 'main']);
	git(['config', 'user.email', 'release-test@example.com']);
	git(['config', 'user.name', 'Release Test']);
	// The node_modules link is ignored (.gitignore's node_modules matches a link as well as a folder).
	git(['add', '-A']);
	git(['commit', '-q', '-m', 'The repository as it is']);
	return copy;
}

test('release bumps the versions, dates the changelog entry, packages both artifacts, commits and tags', async () => {
	const copy = copyOfRepository();
	const version = (file: string): string =>
		(JSON.parse(readFileSync(join(copy, file), 'utf8')) as { version: string }).version;
	const current = version('package.json');
	const [major = 0, minor = 0] = current.split('.').map(Number);
	const next = `${major}.${minor + 1}.0`;
	// The tests are this run's own: --skip-tests, so the copy does not run npm test inside npm test.
	const result = await release([next, '--skip-tests'], copy);
	assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
	assert.match(result.stdout, new RegExp(`^release plan for ${next}$`, 'm'));
	for (const file of ['package.json', 'packages/cli/package.json', 'package-lock.json']) {
		assert.equal(version(file), next, `${file} is at ${next}`);
	}
	const changelog = readFileSync(join(copy, 'CHANGELOG.md'), 'utf8');
	assert.match(changelog, new RegExp(`^## Unreleased\\n\\n## ${next} — \\d{4}-\\d{2}-\\d{2}\\n\\n- `, 'm'));
	for (const artifact of [`mcp-switchboard-${next}.vsix`, `mcp-switchboard-${next}.tgz`]) {
		assert.ok(existsSync(join(copy, artifact)), `${artifact} is in the repository folder`);
	}
	const git = (args: string[]): string => spawnSync('git', args, { cwd: copy, encoding: 'utf8' }).stdout.trim();
	assert.equal(git(['log', '-1', '--format=%s']), `Release ${next}`);
	assert.deepEqual(git(['show', '--name-only', '--format=', 'HEAD']).split('\n').sort(), [
		'CHANGELOG.md',
		'package-lock.json',
		'package.json',
		'packages/cli/package.json',
	]);
	assert.equal(git(['rev-parse', `v${next}^{commit}`]), git(['rev-parse', 'HEAD']), `the tag v${next} is the commit`);
	assert.equal(git(['status', '--porcelain', '--untracked-files=no']), '', 'nothing tracked is left uncommitted');

	// The release workflow's step on a tag that is not the version stops before it builds anything.
	const wrongTag = await release(['--ci'], copy, { GITHUB_REF_NAME: 'v9.9.9' });
	assert.equal(wrongTag.code, 1);
	assert.match(wrongTag.stderr, new RegExp(`the tag v9\\.9\\.9 is not v${next.replaceAll('.', '\\.')}`));

	// On the right tag it builds both into release/ and hands their paths to the publishing job ($GITHUB_OUTPUT).
	const outputs = join(scratch, 'github-output');
	const onTag = await release(['--ci'], copy, { GITHUB_REF_NAME: `v${next}`, GITHUB_OUTPUT: outputs });
	assert.equal(onTag.code, 0, `${onTag.stdout}\n${onTag.stderr}`);
	const vsix = join(copy, 'release', `mcp-switchboard-${next}.vsix`);
	const tarball = join(copy, 'release', `mcp-switchboard-${next}.tgz`);
	assert.equal(readFileSync(outputs, 'utf8'), `vsix=${vsix}\ntarball=${tarball}\nversion=${next}\n`);
	assert.ok(existsSync(vsix) && existsSync(tarball), 'both artifacts are in release/');
});
