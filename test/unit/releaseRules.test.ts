// The rules the release and packaging scripts enforce, on inputs a real repository cannot show at will: a changelog
// without an entry, a .vsix that breaks the Marketplace's or Open VSX's rules, vsce's warning lines. The scripts are
// plain ES modules (scripts/*.mjs), loaded as they are.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

interface ReleaseModule {
	changelogEntry: (
		text: string,
		version: string,
		date: string,
	) => { kind: 'present' } | { kind: 'promote'; text: string } | { kind: 'missing'; reason: string };
	compareVersions: (a: string, b: string) => number;
}
interface CheckModule {
	vsixProblems: (file: string) => string[];
	vsceWarnings: (output: string) => string[];
}

/** Loads a script module at run time (a computed specifier, so the test bundler leaves it to Node). */
function load<T>(script: string): Promise<T> {
	return import(pathToFileURL(join(process.cwd(), 'scripts', script)).href) as Promise<T>;
}

test('the changelog entry: a section with items, else Unreleased promoted under a new empty Unreleased, else refused', async () => {
	const { changelogEntry } = await load<ReleaseModule>('release.mjs');
	const text = '# Changelog\n\n## Unreleased\n\n- A new thing.\n\n## 0.1.0\n\n- The first.\n';
	const promoted = changelogEntry(text, '0.2.0', '2026-11-28');
	assert.deepEqual(promoted, {
		kind: 'promote',
		text: '# Changelog\n\n## Unreleased\n\n## 0.2.0 — 2026-11-28\n\n- A new thing.\n\n## 0.1.0\n\n- The first.\n',
	});
	assert.deepEqual(changelogEntry(promoted.kind === 'promote' ? promoted.text : '', '0.2.0', ''), { kind: 'present' });
	assert.deepEqual(changelogEntry('## [0.3.0] - 2027-01-02\n\n* Fixed.\n', '0.3.0', ''), { kind: 'present' });
	const empty = changelogEntry('# Changelog\n\n## Unreleased\n\n## 0.1.0\n\n- The first.\n', '0.2.0', '2026-11-28');
	assert.equal(empty.kind, 'missing');
	assert.match(
		empty.kind === 'missing' ? empty.reason : '',
		/no "## 0\.2\.0" section and nothing under "## Unreleased"/,
	);
	const bare = changelogEntry('## 0.2.0\n\n## 0.1.0\n\n- The first.\n', '0.2.0', '');
	assert.match(bare.kind === 'missing' ? bare.reason : '', /"## 0\.2\.0" section lists nothing/);
});

test('versions compare as numbers, not text', async () => {
	const { compareVersions } = await load<ReleaseModule>('release.mjs');
	assert.equal(compareVersions('0.10.0', '0.9.9'), 1);
	assert.equal(compareVersions('1.0.0', '1.0.0'), 0);
	assert.equal(compareVersions('0.1.9', '0.2.0'), -1);
});

test("vsce's warnings are found with or without colours, and as GitHub Actions annotations", async () => {
	const { vsceWarnings } = await load<CheckModule>('package-check.mjs');
	const output = [
		'\x1b[30;43m WARNING \x1b[39;49m LICENSE, LICENSE.md, or LICENSE.txt not found',
		' INFO  Files included in the VSIX:',
		"::warning::A 'repository' field is missing",
		' DONE  Packaged: x.vsix (14 files, 526.53 KB)',
	].join('\n');
	assert.deepEqual(vsceWarnings(output), [
		' WARNING  LICENSE, LICENSE.md, or LICENSE.txt not found',
		"::warning::A 'repository' field is missing",
	]);
	assert.deepEqual(vsceWarnings(' DONE  Packaged: x.vsix'), []);
});

/** A zip archive of the given files (deflated), as vsce writes a .vsix. */
function zip(files: Record<string, Buffer | string>): Buffer {
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const [name, content] of Object.entries(files)) {
		const data = deflateRawSync(Buffer.from(content));
		const nameBytes = Buffer.from(name);
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(8, 8);
		local.writeUInt32LE(data.length, 18);
		local.writeUInt16LE(nameBytes.length, 26);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(8, 10);
		central.writeUInt32LE(data.length, 20);
		central.writeUInt16LE(nameBytes.length, 28);
		central.writeUInt32LE(offset, 42);
		locals.push(local, nameBytes, data);
		centrals.push(central, nameBytes);
		offset += 30 + nameBytes.length + data.length;
	}
	const directory = Buffer.concat(centrals);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(Object.keys(files).length, 8);
	end.writeUInt16LE(Object.keys(files).length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
}

/** A PNG header of the given size: the check reads the signature and the IHDR width and height. */
function pngHeader(width: number, height: number): Buffer {
	const png = Buffer.alloc(33);
	Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png);
	png.writeUInt32BE(13, 8);
	png.write('IHDR', 12, 'latin1');
	png.writeUInt32BE(width, 16);
	png.writeUInt32BE(height, 20);
	return png;
}

test('the .vsix check accepts the real manifest and names each Marketplace / Open VSX rule a bad package breaks', async () => {
	const { vsixProblems } = await load<CheckModule>('package-check.mjs');
	const dir = mkdtempSync(join(tmpdir(), 'vsix-rules-'));
	try {
		const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>;
		const identity = (publisher: string): string =>
			`<PackageManifest><Metadata><Identity Language="en-US" Id="x" Version="1" Publisher="${publisher}"/></Metadata></PackageManifest>`;
		const good = join(dir, 'good.vsix');
		writeFileSync(
			good,
			zip({
				'extension.vsixmanifest': identity(String(manifest.publisher)),
				'extension/package.json': JSON.stringify(manifest),
				'extension/LICENSE.txt': 'MIT',
				'extension/readme.md': '# x',
				'extension/changelog.md': '# x',
				'extension/media/icon.png': readFileSync('media/icon.png'),
			}),
		);
		assert.deepEqual(vsixProblems(good), [], 'the repository manifest, icon and license pass');

		const bad = join(dir, 'bad.vsix');
		const broken = {
			...manifest,
			publisher: 'mcp switchboard',
			icon: 'media/icon.png',
			galleryBanner: { color: '#1b2444', theme: 'blue' },
			keywords: Array.from({ length: 31 }, (_, i) => `k${i}`),
			bugs: 'not a url',
		};
		writeFileSync(
			bad,
			zip({
				'extension.vsixmanifest': identity('someone-else').replace(
					'</Metadata>',
					`<Tags>${Array.from({ length: 33 }, (_, i) => `t${i}`).join(',')}</Tags></Metadata>`,
				),
				'extension/package.json': JSON.stringify(broken),
				'extension/readme.md': '# x',
				'extension/changelog.md': '# x',
				'extension/media/icon.png': pngHeader(64, 64),
			}),
		);
		const problems = vsixProblems(bad);
		for (const expected of [
			/^publisher "mcp switchboard" must match/,
			/^galleryBanner\.theme is not dark or light$/,
			/^31 keywords: the Marketplace takes 30$/,
			/^33 tags in extension\.vsixmanifest: the Marketplace takes 30$/,
			/^bugs is not a URL: not a url$/,
			/^extension\.vsixmanifest names publisher someone-else/,
			/^no LICENSE file in the package \(Open VSX requires a license\)$/,
			/^the icon is 64×64, not 128×128$/,
		]) {
			assert.ok(
				problems.some((p) => expected.test(p)),
				`${expected} among the problems:\n${problems.join('\n')}`,
			);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
