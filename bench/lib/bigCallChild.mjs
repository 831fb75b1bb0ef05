// Run in a fresh process per client so memory numbers are clean: node bigCallChild.mjs <client> <mib>
// Prints one JSON line: { ok, ms, maxRssMiB, baseRssMiB, length } or { ok: false, error }.
import { connectClient } from './clients.mjs';

const [which, mibText] = process.argv.slice(2);
const mib = Number(mibText);
try {
	const client = await connectClient(which);
	await client.callTool('echo', { text: 'warm' });
	const baseRssMiB = process.memoryUsage().rss / 1048576;
	const start = performance.now();
	const result = await client.callTool('big', { mib });
	const ms = performance.now() - start;
	const length = result.content[0].text.length;
	if (length !== mib * 1048576) throw new Error(`got ${length} characters`);
	const maxRssMiB = process.resourceUsage().maxRSS / 1024;
	console.log(JSON.stringify({ ok: true, ms, maxRssMiB, baseRssMiB, length }));
	await client.close();
	process.exit(0);
} catch (error) {
	console.log(JSON.stringify({ ok: false, error: String(error?.message ?? error).slice(0, 200) }));
	process.exit(0);
}
