// `npm run release -- <version> [--dry-run] [--skip-tests]`: one command from "the changelog is written" to "push
// the tag". It checks, bumps, tests, packages and commits; publishing is the tag's job (.github/workflows/release.yml
// publishes to the Visual Studio Marketplace, Open VSX and npm when the tag `v<version>` is pushed).
//
//  1. checks: <version> is x.y.z and newer than package.json's, the tag v<version> does not exist, the working tree
//     is clean, packages/cli/package.json is at the same version, and CHANGELOG.md has an entry for the version: a
//     `## <version>` section with items, or items under `## Unreleased`, which become that section (dated today)
//     under a new empty `## Unreleased`;
//  2. bumps the version in package.json, packages/cli/package.json and package-lock.json;
//  3. runs `npm run typecheck`, `npm run lint` and `npm test` (--skip-tests skips them, and says so);
//  4. packages both artifacts: mcp-switchboard-<version>.vsix (README links pointed at the tag, scripts/package.mjs
//     --release) and the npm tarball mcp-switchboard-<version>.tgz (scripts/package-cli.mjs), in the repository, and
//     runs `npm publish --dry-run` on the tarball (vsce and ovsx have no dry run: package-check.mjs stands in);
//  5. commits "Release <version>" and tags v<version> (not pushed: the plan prints the push that publishes).
//
// --dry-run changes nothing (files, git): it runs the checks (a dirty tree is reported, not fatal), skips the tests
// (a dry run is for reading the plan; the tests are `npm test`), builds both artifacts at the new version into a
// temporary folder to report their names and sizes, and prints the plan.
//
//   node scripts/release.mjs --ci       (in the release workflow on a tag: checks that the tag is v<package.json's
//                                        version> and the changelog has its section, packages both artifacts into
//                                        release/, and writes their paths to $GITHUB_OUTPUT)
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_PACKAGE_DIR, packCli } from './package-cli.mjs';
import { packageVsix } from './package.mjs';
import { repoRoot } from './workbench.mjs';

const CHANGELOG = join(repoRoot, 'CHANGELOG.md');
const MANIFESTS = [join(repoRoot, 'package.json'), join(CLI_PACKAGE_DIR, 'package.json')];
const LOCK = join(repoRoot, 'package-lock.json');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

function git(args, options = {}) {
	const result = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
	if (result.status !== 0 && !options.allowFailure) {
		throw new Error(`release: git ${args.join(' ')} failed: ${result.stderr.trim()}`);
	}
	return result;
}

/** -1, 0 or 1 as x.y.z `a` is older than, equal to or newer than `b`. */
export function compareVersions(a, b) {
	const [pa, pb] = [a.split('.').map(Number), b.split('.').map(Number)];
	for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
	return 0;
}

/**
 * The changelog's sections: `## <title>` headings and the text up to the next one. The title of a version's section
 * is the version, optionally followed by ` — <date>` or ` (<date>)`.
 */
function changelogSections(text) {
	const sections = [];
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const heading = /^## (.+?)\s*$/.exec(lines[i]);
		if (heading) sections.push({ title: heading[1], line: i, body: [] });
		else sections.at(-1)?.body.push(lines[i]);
	}
	return sections;
}

const versionOf = (title) => /^\[?(\d+\.\d+\.\d+)\]?(?:\s+(?:—|-|\().*)?$/.exec(title)?.[1];
const hasItems = (section) => section.body.some((line) => /^\s*[-*] \S/.test(line));

/**
 * What the changelog needs for `version`: `{ kind: 'present' }` when it has the section with items,
 * `{ kind: 'promote', text }` when Unreleased has items (text: the changelog after the release), or
 * `{ kind: 'missing', reason }`.
 * @param {string} text
 * @param {string} version
 * @param {string} date  YYYY-MM-DD, for the promoted heading
 */
export function changelogEntry(text, version, date) {
	const sections = changelogSections(text);
	const own = sections.find((s) => versionOf(s.title) === version);
	if (own) {
		return hasItems(own)
			? { kind: 'present' }
			: { kind: 'missing', reason: `CHANGELOG.md's "## ${own.title}" section lists nothing` };
	}
	const unreleased = sections.find((s) => /^\[?unreleased\]?$/i.test(s.title));
	if (!unreleased || !hasItems(unreleased)) {
		return {
			kind: 'missing',
			reason: `CHANGELOG.md has no "## ${version}" section and nothing under "## Unreleased": write what changed first`,
		};
	}
	const lines = text.split('\n');
	lines.splice(unreleased.line, 1, '## Unreleased', '', `## ${version} — ${date}`);
	return { kind: 'promote', text: lines.join('\n') };
}

/** The version bump of package-lock.json's own entries (its top and packages[""]), keeping its formatting. */
function bumpLock(text, version) {
	const lock = JSON.parse(text);
	lock.version = version;
	if (lock.packages?.['']) lock.packages[''].version = version;
	return `${JSON.stringify(lock, null, '\t')}\n`;
}

function bumpManifest(file, version) {
	const text = readFileSync(file, 'utf8');
	// Only the top-level "version" line: the rest of the file (its tabs, its order) stays as written.
	const bumped = text.replace(/^(\t"version": )"[^"]*"/m, `$1"${version}"`);
	if (bumped === text && readJson(file).version !== version) throw new Error(`release: no version line in ${file}`);
	writeFileSync(file, bumped);
}

const kb = (file) => `${Math.round(statSync(file).size / 1024)} KB`;

function runStep(command, args) {
	console.log(`release: ${command} ${args.join(' ')}`);
	const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
	if (result.status !== 0) {
		throw new Error(
			`release: ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}); the version bump is ` +
				'not committed: fix and run the release again, or undo it with `git checkout -- .`',
		);
	}
}

/** The checks of step 1; returns the problems (fatal) and notes (reported). */
function check(version, current, date) {
	const problems = [];
	const notes = [];
	if (!/^\d+\.\d+\.\d+$/.test(version))
		problems.push(`"${version}" is not a version x.y.z (the Marketplace takes no suffixes)`);
	else if (compareVersions(version, current) <= 0) problems.push(`${version} is not newer than the current ${current}`);
	const cliVersion = readJson(MANIFESTS[1]).version;
	if (cliVersion !== current)
		problems.push(`packages/cli/package.json is at ${cliVersion}, package.json at ${current}`);
	if (git(['rev-parse', '-q', '--verify', `refs/tags/v${version}`], { allowFailure: true }).status === 0)
		problems.push(`the tag v${version} exists already`);
	// Tracked files only: a release commits its own four files, and untracked ones cannot leak into it.
	const dirty = git(['status', '--porcelain', '--untracked-files=no']).stdout.trim();
	if (dirty) {
		const count = dirty.split('\n').length;
		notes.push(
			`${count} tracked file${count === 1 ? ' has' : 's have'} uncommitted changes: commit or stash them first`,
		);
	}
	const entry = changelogEntry(readFileSync(CHANGELOG, 'utf8'), version, date);
	if (entry.kind === 'missing') problems.push(entry.reason);
	return { problems, notes, entry };
}

/**
 * `npm publish --dry-run` of the tarball: what npm itself says of the package before it would upload it (a bin path
 * it would have to correct, an invalid field). Its one expected warning, that nobody is logged in, is not a problem.
 */
function npmPublishDryRun(tarball) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
	const result = spawnSync('npm', ['publish', '--dry-run', tarball], { cwd: tmpdir(), encoding: 'utf8', env });
	const warnings = (result.stderr ?? '')
		.split('\n')
		.filter((line) => /^npm warn/i.test(line) && !/requires you to be logged in/.test(line));
	if (result.status !== 0 || warnings.length > 0) {
		throw new Error(`release: npm publish --dry-run ${basename(tarball)} objects:\n${result.stderr}`);
	}
}

/** Builds both artifacts into `outDir` at `version` and has npm look at the tarball; returns their paths. */
async function packageBoth(version, outDir) {
	const vsix = await packageVsix({ out: join(outDir, `mcp-switchboard-${version}.vsix`), release: true, version });
	const { tarball } = await packCli({ outDir, version });
	npmPublishDryRun(tarball);
	return { vsix, tarball };
}

function printPlan({ version, current, date, entry, notes, artifacts, testsRun, dryRun }) {
	const changelog =
		entry.kind === 'present'
			? `CHANGELOG.md: the "## ${version}" section is there`
			: `CHANGELOG.md: "## Unreleased" becomes "## ${version} — ${date}", under a new empty "## Unreleased"`;
	const lines = [
		`release plan for ${version}${dryRun ? ' (dry run: nothing was changed)' : ''}`,
		`  version   ${current} → ${version} in package.json, packages/cli/package.json, package-lock.json`,
		`  changes   ${changelog}`,
		`  tests     ${testsRun ? 'npm run typecheck, npm run lint, npm test: passed' : 'skipped (--dry-run or --skip-tests): `npm run typecheck && npm run lint && npm test` is what a release runs'}`,
		`  vsix      ${basename(artifacts.vsix)} (${kb(artifacts.vsix)}) → Visual Studio Marketplace (vsce publish) and Open VSX (ovsx publish)`,
		`  npm       ${basename(artifacts.tarball)} (${kb(artifacts.tarball)}) → npm (npm publish), package mcp-switchboard; npm publish --dry-run accepts it`,
		`  git       commit "Release ${version}", tag v${version}`,
		`  publish   git push origin HEAD v${version}: .github/workflows/release.yml tests, packages and publishes on the tag`,
		...notes.map((note) => `  note      ${note}`),
	];
	console.log(lines.join('\n'));
}

/** The release workflow's step on a tag: checks, then both artifacts into release/ and their paths as outputs. */
async function ciRelease() {
	const version = readJson(MANIFESTS[0]).version;
	const tag = process.env.GITHUB_REF_NAME;
	if (tag && tag !== `v${version}`)
		throw new Error(`release: the tag ${tag} is not v${version}, package.json's version`);
	if (readJson(MANIFESTS[1]).version !== version)
		throw new Error('release: packages/cli/package.json has another version');
	if (changelogEntry(readFileSync(CHANGELOG, 'utf8'), version, '').kind !== 'present')
		throw new Error(`release: CHANGELOG.md has no "## ${version}" section with items`);
	const outDir = join(repoRoot, 'release');
	mkdirSync(outDir, { recursive: true });
	const { vsix, tarball } = await packageBoth(version, outDir);
	console.log(`release: ${vsix} (${kb(vsix)}), ${tarball} (${kb(tarball)})`);
	if (process.env.GITHUB_OUTPUT)
		appendFileSync(process.env.GITHUB_OUTPUT, `vsix=${vsix}\ntarball=${tarball}\nversion=${version}\n`);
}

async function release(args) {
	const dryRun = args.includes('--dry-run');
	const skipTests = dryRun || args.includes('--skip-tests');
	const version = args.find((a) => !a.startsWith('--'));
	if (!version) throw new Error('usage: npm run release -- <version> [--dry-run] [--skip-tests]');
	const current = readJson(MANIFESTS[0]).version;
	const date = new Date().toISOString().slice(0, 10);
	const { problems, notes, entry } = check(version, current, date);
	if (!dryRun && notes.length > 0) problems.push(...notes.splice(0));
	if (problems.length > 0) throw new Error(`release: ${version} cannot be released:\n  ${problems.join('\n  ')}`);

	if (dryRun) {
		const outDir = mkdtempSync(join(tmpdir(), 'mcp-switchboard-release-'));
		try {
			const artifacts = await packageBoth(version, outDir);
			printPlan({ version, current, date, entry, notes, artifacts, testsRun: false, dryRun });
		} finally {
			rmSync(outDir, { recursive: true, force: true });
		}
		return;
	}

	for (const file of MANIFESTS) bumpManifest(file, version);
	writeFileSync(LOCK, bumpLock(readFileSync(LOCK, 'utf8'), version));
	if (entry.kind === 'promote') writeFileSync(CHANGELOG, entry.text);
	if (!skipTests) {
		runStep('npm', ['run', 'typecheck']);
		runStep('npm', ['run', 'lint']);
		runStep('npm', ['test']);
	}
	const artifacts = await packageBoth(version, repoRoot);
	git(['add', 'package.json', 'package-lock.json', 'packages/cli/package.json', 'CHANGELOG.md']);
	git(['commit', '-m', `Release ${version}`]);
	git(['tag', '-a', `v${version}`, '-m', `MCP Switchboard ${version}`]);
	printPlan({ version, current, date, entry, notes, artifacts, testsRun: !skipTests, dryRun });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const args = process.argv.slice(2);
	try {
		await (args.includes('--ci') ? ciRelease() : release(args));
	} catch (error) {
		console.error(error instanceof Error ? error.message : String(error));
		process.exit(1);
	}
}
