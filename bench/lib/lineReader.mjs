// Newline framing on bytes, linear in message size: keep the chunks of an unfinished line, search only the new
// chunk for '\n', join once per message. Shared by the bench server and the floor client so both pay the same.

/** Returns a function to feed chunks; calls onLine(buffer) for every complete line (without the '\n'). */
export function lineReader(onLine) {
	let pending = [];
	return (chunk) => {
		let start = 0;
		let newline = chunk.indexOf(10);
		while (newline !== -1) {
			let line;
			if (pending.length === 0) {
				line = chunk.subarray(start, newline);
			} else {
				pending.push(chunk.subarray(start, newline));
				line = Buffer.concat(pending);
				pending = [];
			}
			if (line.length > 0) onLine(line);
			start = newline + 1;
			newline = chunk.indexOf(10, start);
		}
		if (start < chunk.length) pending.push(start === 0 ? chunk : chunk.subarray(start));
	};
}
