/**
 * sha-256 of a string, as hex. Node's one-shot `crypto.hash` (Node 20.12 and later) costs a third of a `createHash`
 * object and allocates no stream: activation hashes every configured server twice (its identity and its
 * configuration), so with fifty servers that is a hundred hashes before the first row shows.
 */
import * as crypto from 'node:crypto';

const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function sha256Hex(text: string): string {
	return oneShot ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}
