// Checks on the packaged .vsix that keep it publishable: vsce printed no warning, and the package meets the rules of
// the Visual Studio Marketplace and of Open VSX (VSCodium, Cursor, code-server, Gitpod). scripts/package.mjs runs
// them on every package it builds (so `npm test`'s installed-package run and the release both do); run alone:
//
//   node scripts/package-check.mjs <file.vsix>
//
// Where the rules come from:
// - vsce (node_modules/@vscode/vsce/out/package.js): it refuses SVG icons, and prints WARNING for a missing
//   `repository`, a missing LICENSE file, `*` activation, more than 100 JavaScript files (an unbundled extension).
// - Open VSX: `ovsx publish` takes the namespace from the package's `publisher` and requires a license (a `license`
//   field or a LICENSE file; ovsx lib/check-license.js); the registry then validates the metadata
//   (eclipse/openvsx server ExtensionValidator.java): names match [\w\-\+\$~]+, no control characters, strings of at
//   most 255 characters (description 2048, galleryBanner.color 16), galleryBanner.theme dark|light, homepage /
//   repository / bugs URLs with a host.
// - The Marketplace: at most 30 keywords (tags); an icon of at least 128×128 pixels, shown at that size.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

/**
 * Every file of a zip archive (a .vsix or an npm tarball's cousin), by path. Reads the central directory, which is
 * what vsce's own reader trusts too; only "stored" and "deflated" entries, the two that vsce writes.
 * @param {Buffer} zip
 * @returns {Map<string, Buffer>}
 */
export function readZip(zip) {
	const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
	if (eocd < 0) throw new Error('not a zip archive: no end-of-central-directory record');
	const count = zip.readUInt16LE(eocd + 10);
	let at = zip.readUInt32LE(eocd + 16);
	const files = new Map();
	for (let i = 0; i < count; i++) {
		if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`zip: bad central directory entry ${i}`);
		const method = zip.readUInt16LE(at + 10);
		const compressedSize = zip.readUInt32LE(at + 20);
		const nameLength = zip.readUInt16LE(at + 28);
		const extraLength = zip.readUInt16LE(at + 30);
		const commentLength = zip.readUInt16LE(at + 32);
		const localHeader = zip.readUInt32LE(at + 42);
		const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
		const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
		const data = zip.subarray(dataStart, dataStart + compressedSize);
		if (method !== 0 && method !== 8) throw new Error(`zip: ${name} uses compression method ${method}`);
		files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
		at += 46 + nameLength + extraLength + commentLength;
	}
	return files;
}

/**
 * The warnings in vsce's output (stdout and stderr together): its ` WARNING ` lines, or `::warning::` lines when it
 * runs in GitHub Actions, where it writes them as workflow commands instead.
 * @param {string} output
 * @returns {string[]}
 */
export function vsceWarnings(output) {
	return (
		output
			// eslint-disable-next-line no-control-regex -- vsce colours its prefixes with ANSI escapes
			.replace(/\x1b\[[0-9;]*m/g, '')
			.split('\n')
			.filter((line) => /^\s*WARNING\b|^::warning::/.test(line))
	);
}

const NAME = /^[\w\-+$~]+$/;
const PUBLIC_REPOSITORY = 'https://github.com/mcp-switchboard/mcp-switchboard';

/** True when the text has a character Open VSX rejects (control, format, private use, unassigned, separators). */
function hasBadCharacter(text) {
	return /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(text);
}

function isUrlWithHost(value) {
	try {
		return new URL(value.replace(/^git\+/, '')).host !== '';
	} catch {
		return false;
	}
}

/** The manifest's rules for the Marketplace and Open VSX; each problem is one sentence. */
function manifestProblems(manifest) {
	const problems = [];
	for (const field of ['publisher', 'name']) {
		if (!NAME.test(manifest[field] ?? '')) problems.push(`${field} "${manifest[field]}" must match ${NAME}`);
	}
	if (!/^\d+\.\d+\.\d+$/.test(manifest.version ?? '')) problems.push(`version "${manifest.version}" is not x.y.z`);
	const strings = [
		['displayName', manifest.displayName, 255],
		['description', manifest.description, 2048],
		['license', manifest.license, 255],
		...(manifest.keywords ?? []).map((k) => ['keywords', k, 255]),
		...(manifest.categories ?? []).map((c) => ['categories', c, 255]),
		['galleryBanner.color', manifest.galleryBanner?.color, 16],
	];
	for (const [field, value, limit] of strings) {
		if (typeof value !== 'string' || value === '') problems.push(`${field} is missing`);
		else if (value.length > limit) problems.push(`${field} is longer than ${limit} characters`);
		else if (hasBadCharacter(value)) problems.push(`${field} "${value}" has a control or format character`);
	}
	if (!['dark', 'light'].includes(manifest.galleryBanner?.theme))
		problems.push('galleryBanner.theme is not dark or light');
	if ((manifest.keywords ?? []).length > 30)
		problems.push(`${manifest.keywords.length} keywords: the Marketplace takes 30`);
	const urls = {
		homepage: manifest.homepage,
		repository: typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url,
		bugs: typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url,
	};
	for (const [field, url] of Object.entries(urls)) {
		if (!url || !isUrlWithHost(url)) problems.push(`${field} is not a URL: ${url}`);
		else if (!url.replace(/^git\+/, '').startsWith(PUBLIC_REPOSITORY))
			problems.push(`${field} ${url} is not the public repository ${PUBLIC_REPOSITORY}`);
	}
	return problems;
}

/**
 * Every reason the .vsix at `file` would be refused or listed badly by the Marketplace or Open VSX; empty when it
 * is ready. Looks inside the package, at what the registries read: extension/package.json, the license file, the
 * icon and extension.vsixmanifest.
 * @param {string} file
 * @returns {string[]}
 */
export function vsixProblems(file) {
	const files = readZip(readFileSync(file));
	const manifestFile = files.get('extension/package.json');
	if (!manifestFile) return ['extension/package.json is missing'];
	const manifest = JSON.parse(manifestFile.toString('utf8'));
	const problems = manifestProblems(manifest);
	// Open VSX publishes under the namespace named by `publisher`; vsce writes the same into the .vsixmanifest.
	const vsixManifest = files.get('extension.vsixmanifest')?.toString('utf8') ?? '';
	const identity = /<Identity\b[^>]*\bPublisher="([^"]*)"/.exec(vsixManifest)?.[1];
	if (identity !== manifest.publisher)
		problems.push(`extension.vsixmanifest names publisher ${identity}, package.json ${manifest.publisher}`);
	// The Marketplace's tags are the keywords plus what vsce derives from `contributes` (e.g. `chat-participant`).
	const tags = /<Tags>([^<]*)<\/Tags>/.exec(vsixManifest)?.[1]?.split(',').filter(Boolean) ?? [];
	if (tags.length > 30) problems.push(`${tags.length} tags in extension.vsixmanifest: the Marketplace takes 30`);
	if (!['extension/LICENSE.txt', 'extension/LICENSE', 'extension/LICENSE.md'].some((f) => files.has(f)))
		problems.push('no LICENSE file in the package (Open VSX requires a license)');
	const icon = manifest.icon && files.get(`extension/${manifest.icon.replace(/^\.\//, '')}`);
	if (!manifest.icon) problems.push('no icon in package.json');
	else if (!icon) problems.push(`the icon ${manifest.icon} is not in the package`);
	else if (icon.subarray(1, 4).toString('latin1') !== 'PNG') problems.push(`the icon ${manifest.icon} is not a PNG`);
	else {
		const [width, height] = [icon.readUInt32BE(16), icon.readUInt32BE(20)];
		if (width !== 128 || height !== 128) problems.push(`the icon is ${width}×${height}, not 128×128`);
	}
	for (const doc of ['extension/readme.md', 'extension/changelog.md']) {
		if (!files.has(doc)) problems.push(`${doc} is missing (the listing's Details and Changelog tabs)`);
	}
	return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const file = process.argv[2];
	if (!file) {
		console.error('usage: node scripts/package-check.mjs <file.vsix>');
		process.exit(2);
	}
	const problems = vsixProblems(file);
	for (const problem of problems) console.error(`package-check: ${problem}`);
	if (problems.length > 0) process.exit(1);
	console.log(`package-check: ${file} is ready for the Marketplace and Open VSX`);
}
