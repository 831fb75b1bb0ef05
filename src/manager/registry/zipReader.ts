/**
 * A small reader of ZIP archives (what an `.mcpb` bundle is), enough to unpack one safely: stored and deflated
 * entries (node:zlib's inflateRaw), no ZIP64, no encryption. Entries whose path leaves the folder (`..`, absolute
 * paths, drive letters) are refused, and so is an archive that unpacks to more than `maxBytes`.
 * Format: PKWARE's APPNOTE.TXT (https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT), sections 4.3.7
 * (local file header), 4.3.12 (central directory header) and 4.3.16 (end of central directory record).
 */
import { inflateRawSync } from 'node:zlib';

/** One file of an archive, unpacked. */
export interface ZipFile {
	/** The path inside the archive, with forward slashes. */
	path: string;
	data: Buffer;
	/** Unix permission bits when the archive was made on Unix (0 otherwise). */
	mode: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Whether `name` stays inside the folder it is unpacked into. */
function safePath(name: string): boolean {
	if (name === '' || name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name)) return false;
	return !name.split(/[/\\]/).some((part) => part === '..');
}

/** The files of the ZIP archive `zip` (directories left out). Throws with a sentence on anything it cannot read. */
export function readZip(zip: Buffer, maxBytes = 256 * 1024 * 1024): ZipFile[] {
	let end = -1;
	for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
		if (zip.readUInt32LE(i) === EOCD) {
			end = i;
			break;
		}
	}
	if (end < 0) throw new Error('not a ZIP archive (no end of central directory)');
	const count = zip.readUInt16LE(end + 10);
	let offset = zip.readUInt32LE(end + 16);
	if (count === 0xffff || offset === 0xffffffff) throw new Error('ZIP64 archives are not supported');
	const files: ZipFile[] = [];
	let total = 0;
	for (let n = 0; n < count; n++) {
		if (offset + 46 > zip.length || zip.readUInt32LE(offset) !== CENTRAL)
			throw new Error('damaged ZIP central directory');
		const flags = zip.readUInt16LE(offset + 8);
		const method = zip.readUInt16LE(offset + 10);
		const compressed = zip.readUInt32LE(offset + 20);
		const size = zip.readUInt32LE(offset + 24);
		const nameLength = zip.readUInt16LE(offset + 28);
		const extraLength = zip.readUInt16LE(offset + 30);
		const commentLength = zip.readUInt16LE(offset + 32);
		const madeBy = zip.readUInt16LE(offset + 4) >> 8;
		const external = zip.readUInt32LE(offset + 38);
		const local = zip.readUInt32LE(offset + 42);
		const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
		offset += 46 + nameLength + extraLength + commentLength;
		if (name.endsWith('/')) continue;
		if (!safePath(name)) throw new Error(`the archive holds a path outside its folder: ${name}`);
		if (flags & 1) throw new Error(`encrypted entries are not supported: ${name}`);
		total += size;
		if (total > maxBytes) throw new Error(`the archive unpacks to more than ${maxBytes} bytes`);
		if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL) throw new Error(`damaged ZIP entry: ${name}`);
		const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
		const raw = zip.subarray(start, start + compressed);
		let data: Buffer;
		if (method === 0) data = Buffer.from(raw);
		else if (method === 8) data = inflateRawSync(raw, { maxOutputLength: Math.max(size, 1) });
		else throw new Error(`compression method ${method} is not supported: ${name}`);
		if (data.length !== size) throw new Error(`damaged ZIP entry (size differs): ${name}`);
		files.push({ path: name.replace(/\\/g, '/'), data, mode: madeBy === 3 ? (external >>> 16) & 0o777 : 0 });
	}
	return files;
}
