/**
 * One line that says why a server is in error, for a tree row or a status line, where the whole message (with the
 * stderr a crashed server left) goes into a tooltip or the log. A crash reads "Cannot find module 'x' — exited
 * with code 1" instead of its first line, "Server "x" exited with code 1. Last stderr lines:".
 */
import { plural } from '../common/text';

/** The stdio transport's crash message (transports/stdio.ts): "<what happened>. Last stderr lines:\n<lines>". */
const STDERR_HEADING = /^(.*?)\.\s*Last stderr lines:\s*\n([\s\S]*)$/;
/** The restart policy's stop (serverConnection.ts): "Server 'x' stopped 5 times within 3 minutes, … Last error: <error>". */
const CRASH_LOOP =
	/^Server '.*?' (stopped|could not be reached) (\d+) times? within [^,]+, so it is not (?:restarted|tried) again\. Last error: ([\s\S]*)$/;
/** An exception line of Node ("TypeError: x", "Error [ERR_MODULE_NOT_FOUND]: x") or Python ("ValueError: x", "mod.Err: x"). */
const EXCEPTION = /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)|Error)(?: \[[\w-]+\])?: (.+)$/;
/** Lines that are the frame of a crash, not its reason: stack frames, carets, Node's version banner, Python's headers. */
const NOISE =
	/^(at\s|\^+$|~+$|Node\.js v\d|Traceback \(most recent call last\)|File ".*", line \d|During handling of the above exception|The above exception was the direct cause|throw\s|\[eval\]|\S+:\d+$)/;

/** The reason among a crashed server's last stderr lines: its last exception, else its last line that is not noise. */
export function stderrReason(lines: readonly string[]): string | undefined {
	const trimmed = lines.map((line) => line.trim()).filter((line) => line.length > 0);
	for (let i = trimmed.length - 1; i >= 0; i--) {
		const match = EXCEPTION.exec(trimmed[i]!);
		// A plain "Error: x" says nothing "x" does not; a named one ("TypeError", "ModuleNotFoundError") keeps its name.
		if (match) return match[1] === 'Error' ? match[2]!.trim() : `${match[1]}: ${match[2]!.trim()}`;
	}
	for (let i = trimmed.length - 1; i >= 0; i--) {
		if (!NOISE.test(trimmed[i]!)) return trimmed[i];
	}
	return undefined;
}

/**
 * A server's error message as one line of at most `max` characters: for a crash, the reason from its stderr and how
 * it ended ("Cannot find module 'x' — exited with code 1"); for a crash loop the same with how often it stopped; for
 * anything else its first line.
 */
export function errorSummary(message: string, max = 160): string {
	let text = message.trim();
	let stops: number | undefined;
	let unreachable = false;
	const loop = CRASH_LOOP.exec(text);
	if (loop) {
		unreachable = loop[1] === 'could not be reached';
		stops = Number(loop[2]);
		text = loop[3]!.trim();
	}
	let summary: string;
	const crash = STDERR_HEADING.exec(text);
	if (crash) {
		const ending = crash[1]!.replace(/^Server ".*?" /, '');
		const reason = stderrReason(crash[2]!.split('\n'));
		summary = reason ? `${reason} — ${ending}` : ending;
	} else {
		summary = text.split('\n', 1)[0]!.trim();
	}
	if (stops !== undefined)
		summary += unreachable
			? ` (tried ${plural(stops, 'time')}, not tried again)`
			: ` (stopped ${plural(stops, 'time')}, not restarted)`;
	return summary.length > max ? `${summary.slice(0, max - 1)}…` : summary;
}
