/**
 * Writes a file whole or not at all: the text goes to a temporary file beside it, renamed over the old one, so a
 * reader (another window, another run) never sees half a file. The folder is made when missing.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function replaceFile(file: string, text: string): Promise<void> {
	await mkdir(dirname(file), { recursive: true });
	const temporary = `${file}.${process.pid}.tmp`;
	await writeFile(temporary, text);
	await rename(temporary, file);
}

export function replaceFileSync(file: string, text: string): void {
	mkdirSync(dirname(file), { recursive: true });
	const temporary = `${file}.${process.pid}.tmp`;
	writeFileSync(temporary, text);
	renameSync(temporary, file);
}
