/**
 * The protocol view's page: a strict Content-Security-Policy (no network, scripts and styles only with this page's
 * nonce), VS Code's theme colours, a virtualised list (only the rows in view are in the DOM, and only those are
 * asked of the extension, so 100,000 messages scroll as 100 do; while a filter is set, each new batch is filtered
 * alone and appended), a filter box,
 * "Errors only", "Follow", and a details pane. Keyboard: ↑/↓ (Page Up/Down, Home/End) move, Enter opens the
 * details, C copies, H shows the call in the Call History, / focuses the filter and ↓ from it returns to the list,
 * Escape closes the details. The selected row is announced (the list's active descendant and a status line).
 * Server text is only ever set as textContent, never as HTML.
 */
export function protocolViewHtml(server: string, nonce: string, cspSource: string): string {
	const title = server.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}' ${cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>MCP Protocol: ${title}</title>
<style nonce="${nonce}">
	body { margin: 0; padding: 0; font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); display: flex; flex-direction: column; height: 100vh; overflow: hidden; }
	header { display: flex; gap: 8px; align-items: center; padding: 6px 8px; border-bottom: 1px solid var(--vscode-panel-border); }
	header input[type=search] { flex: 1; background: var(--vscode-input-background); color: var(--vscode-input-foreground); border: 1px solid var(--vscode-input-border, transparent); padding: 3px 6px; }
	header input[type=search]:focus { outline: 1px solid var(--vscode-focusBorder); }
	#count { color: var(--vscode-descriptionForeground); white-space: nowrap; }
	#list { flex: 1; overflow-y: auto; position: relative; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
	#list:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
	#spacer { position: relative; }
	.row { position: absolute; left: 0; right: 0; height: 22px; line-height: 22px; display: grid; grid-template-columns: 13ch 24px 13ch minmax(120px, 1fr) 80px 80px 80px; gap: 6px; padding: 0 8px; white-space: nowrap; overflow: hidden; cursor: default; }
	.row:hover { background: var(--vscode-list-hoverBackground); }
	.row.selected { background: var(--vscode-list-activeSelectionBackground); color: var(--vscode-list-activeSelectionForeground); }
	.row .dir.out { color: var(--vscode-charts-blue); }
	.row .dir.in { color: var(--vscode-charts-green); }
	.row.error .method, .row.error .kind, .row.invalid .method, .row.invalid .kind { color: var(--vscode-errorForeground); }
	.row .num { text-align: right; color: var(--vscode-descriptionForeground); }
	.row.selected .num { color: inherit; }
	.row span { overflow: hidden; text-overflow: ellipsis; }
	#details { display: none; flex-direction: column; height: 40%; border-top: 1px solid var(--vscode-panel-border); }
	#details.open { display: flex; }
	#details header { border-bottom: none; }
	#details pre { flex: 1; margin: 0; padding: 6px 8px; overflow: auto; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); white-space: pre-wrap; word-break: break-all; }
	button { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: none; padding: 3px 10px; cursor: pointer; }
	button:hover { background: var(--vscode-button-secondaryHoverBackground); }
	#empty { padding: 16px; color: var(--vscode-descriptionForeground); }
	.grow { flex: 1; }
	.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
</style>
</head>
<body>
<header>
	<input id="filter" type="search" placeholder="Filter by method or text (/)" aria-label="Filter messages">
	<label><input id="errors" type="checkbox"> Errors only</label>
	<label><input id="follow" type="checkbox" checked> Follow</label>
	<span id="count"></span>
</header>
<div id="announce" class="sr-only" role="status" aria-live="polite"></div>
<div id="empty">No messages yet. Messages to and from ${title} appear here while this view is open; call a tool or read a resource.</div>
<div id="list" tabindex="0" role="listbox" aria-label="JSON-RPC messages"><div id="spacer"></div></div>
<section id="details" aria-label="Message">
	<header><strong id="detailsTitle"></strong><span class="grow"></span><button id="history" title="Show this call in the Call History (H)" hidden>Show in Call History</button><button id="copy" title="Copy the message as JSON (C)">Copy</button><button id="close" title="Close (Escape)">Close</button></header>
	<pre id="json"></pre>
</section>
<script nonce="${nonce}">
(() => {
	const vscode = acquireVsCodeApi();
	const ROW = 22;
	// Rows are fetched on demand: the extension says which seqs it keeps ([first, end)) after each batch, and this
	// page asks for the rows it shows. \`rows\` caches those (seq -> row), not every message.
	const rows = new Map();
	let first = 1;
	let end = 1;
	let shown = [];              // while filtering: the matching seqs, oldest first (else every seq in [first, end))
	let filtering = false;
	let token = 0;
	let selected;
	let asking;                  // the seqs asked for and not yet answered (one question at a time)
	const list = document.getElementById('list');
	const spacer = document.getElementById('spacer');
	const filter = document.getElementById('filter');
	const errors = document.getElementById('errors');
	const follow = document.getElementById('follow');
	const count = document.getElementById('count');
	const empty = document.getElementById('empty');
	const details = document.getElementById('details');
	const json = document.getElementById('json');
	const detailsTitle = document.getElementById('detailsTitle');
	const announce = document.getElementById('announce');
	const historyButton = document.getElementById('history');
	// Calls the Call History lists: their request and answer rows link to its entry.
	const linked = (seq) => { const r = rows.get(seq); const request = r && (r.kind === 'request' ? r : r.pair !== undefined ? rows.get(r.pair) : undefined); return Boolean(request && LINKED.includes((request.method ?? '').split(' ')[0])); };
	const LINKED = ['tools/call', 'prompts/get', 'resources/read'];

	const time = (ms) => { const d = new Date(ms); return d.toLocaleTimeString(undefined, { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0'); };
	const size = (n) => n < 1024 ? n + ' B' : n < 1048576 ? (n / 1024).toFixed(1) + ' KB' : (n / 1048576).toFixed(1) + ' MB';
	const latency = (r) => r.latencyMs === undefined ? '' : r.latencyMs < 1000 ? Math.round(r.latencyMs) + ' ms' : (r.latencyMs / 1000).toFixed(2) + ' s';
	const label = (r) => r.method ?? (r.kind === 'invalid' ? '(not JSON-RPC)' : '');

	function cell(text, cls) { const s = document.createElement('span'); s.textContent = text; if (cls) s.className = cls; return s; }

	const shownCount = () => filtering ? shown.length : end - first;
	const shownAt = (i) => filtering ? shown[i] : first + i;
	const indexOfSeq = (seq) => filtering ? shown.indexOf(seq) : seq >= first && seq < end ? seq - first : -1;

	function ask(seqs) {
		// The answer draws again and asks for whatever is still missing then.
		if (asking) return;
		asking = seqs;
		vscode.postMessage({ type: 'rows', seqs });
	}

	function render() {
		empty.style.display = end === first ? 'block' : 'none';
		const n = shownCount();
		spacer.style.height = (n * ROW) + 'px';
		const top = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
		const last = Math.min(n, top + Math.ceil(list.clientHeight / ROW) + 10);
		const fragment = document.createDocumentFragment();
		const missing = [];
		for (let i = top; i < last; i++) {
			const seq = shownAt(i);
			const r = rows.get(seq);
			const el = document.createElement('div');
			el.style.top = (i * ROW) + 'px';
			el.dataset.seq = seq;
			el.id = 'row-' + seq;
			el.setAttribute('role', 'option');
			el.setAttribute('aria-selected', String(seq === selected));
			if (!r) {
				// Asked for; drawn as soon as it comes.
				missing.push(seq);
				el.className = 'row pending' + (seq === selected ? ' selected' : '');
				fragment.append(el);
				continue;
			}
			el.className = 'row ' + r.kind + (r.seq === selected ? ' selected' : '');
			el.append(cell(time(r.time), 'time'), cell(r.direction === 'out' ? '→' : '←', 'dir ' + r.direction), cell(r.kind, 'kind'), cell(label(r), 'method'), cell(r.id === undefined ? '' : '#' + r.id, 'num id'), cell(size(r.size), 'num size'), cell(latency(r), 'num latency'));
			el.title = (r.direction === 'out' ? 'Sent' : 'Received') + ' ' + r.kind + (r.method ? ' ' + r.method : '') + (r.pair !== undefined ? (r.kind === 'request' ? ' (answered)' : ' (answers a request)') : '');
			el.setAttribute('aria-label', titleOf(seq) + ', ' + time(r.time));
			fragment.append(el);
		}
		spacer.replaceChildren(fragment);
		// The selected row is the list's active descendant, so a screen reader reads it as it moves.
		if (selected !== undefined && document.getElementById('row-' + selected)) list.setAttribute('aria-activedescendant', 'row-' + selected);
		else list.removeAttribute('aria-activedescendant');
		count.textContent = (filtering ? shown.length + ' of ' : '') + (end - first) + ' messages';
		if (missing.length > 0) ask(missing);
	}

	/** After the list's length changed: keep the newest row in view while following, then draw. */
	function show() {
		spacer.style.height = (shownCount() * ROW) + 'px';
		if (follow.checked) list.scrollTop = list.scrollHeight;
		render();
	}

	function applyFilter() {
		const query = filter.value.trim();
		filtering = query !== '' || errors.checked;
		if (!filtering) { shown = []; render(); return; }
		vscode.postMessage({ type: 'filter', query, errorsOnly: errors.checked, token: ++token });
	}

	// The extension sends rows as columns (protocolLog.ts RowColumns); the row objects are made here. A response
	// marks its request as answered.
	const KINDS = ['invalid', 'request', 'notification', 'response', 'error'];
	function upsertColumns(c) {
		for (let i = 0; i < c.times.length; i++) {
			const flags = c.flags[i];
			const r = { seq: c.seqs ? c.seqs[i] : c.first + i, time: c.times[i], direction: flags & 1 ? 'in' : 'out', kind: KINDS[(flags >> 1) & 7], size: c.sizes[i] };
			if (c.methods[i] >= 0) r.method = c.names[c.methods[i]];
			if (c.ids[i] !== null && c.ids[i] !== undefined) r.id = c.ids[i];
			if (typeof c.latencies[i] === 'number' && c.latencies[i] === c.latencies[i]) r.latencyMs = c.latencies[i];
			if (c.pairs[i]) {
				r.pair = c.pairs[i];
				const request = r.kind === 'response' || r.kind === 'error' ? rows.get(r.pair) : undefined;
				if (request) request.pair = r.seq;
			}
			rows.set(r.seq, r);
		}
	}

	function select(seq, open) {
		selected = seq;
		// The details pane takes part of the list's height: open it before scrolling the row into view.
		if (open) details.classList.add('open');
		const index = indexOfSeq(seq);
		if (index >= 0) {
			if (index * ROW < list.scrollTop) list.scrollTop = index * ROW;
			else if ((index + 1) * ROW > list.scrollTop + list.clientHeight) list.scrollTop = (index + 1) * ROW - list.clientHeight;
		}
		render();
		describeSelected();
		if (open || details.classList.contains('open')) openDetails(seq);
	}

	/** Says what the selected row is (read by a screen reader), again once its row has come from the extension. */
	function describeSelected() {
		if (selected === undefined) return;
		const r = rows.get(selected);
		announce.textContent = titleOf(selected) + (r ? ', ' + time(r.time) : '') + ', ' + (indexOfSeq(selected) + 1) + ' of ' + shownCount();
		detailsTitle.textContent = titleOf(selected);
		historyButton.hidden = !linked(selected);
	}

	function titleOf(seq) {
		const r = rows.get(seq);
		if (!r) return 'Message ' + seq;
		return (r.direction === 'out' ? 'Sent ' : 'Received ') + r.kind + (r.method ? ' ' + r.method : '') + (r.id !== undefined ? ' #' + r.id : '') + (r.latencyMs !== undefined ? ' after ' + latency(r) : '');
	}

	function openDetails(seq) {
		details.classList.add('open');
		detailsTitle.textContent = titleOf(seq);
		historyButton.hidden = !linked(seq);
		json.textContent = '…';
		vscode.postMessage({ type: 'details', seq });
	}

	window.addEventListener('message', (event) => {
		const message = event.data;
		if (message.type === 'reset') { rows.clear(); first = message.first; end = message.end; applyFilter(); show(); }
		else if (message.type === 'batch') {
			const newestBefore = end - 1;
			first = message.first;
			end = message.end;
			// Forget what the extension no longer keeps, and requests not yet answered (their answer may be in this batch).
			for (const [seq, r] of rows) if (seq < first || (r.kind === 'request' && r.pair === undefined) || r.gone) rows.delete(seq);
			if (rows.size > 5000) rows.clear();
			// While filtering, only the new batch is filtered (in the extension), not every message again.
			if (filtering) {
				if (shown.length > 0 && shown[0] < first) shown = shown.filter((seq) => seq >= first);
				vscode.postMessage({ type: 'filter', query: filter.value.trim(), errorsOnly: errors.checked, token, after: newestBefore });
			}
			show();
		}
		else if (message.type === 'rows') {
			upsertColumns(message.columns);
			// A row asked for that did not come is no longer kept.
			for (const seq of asking ?? []) if (!rows.has(seq)) rows.set(seq, { seq, time: 0, direction: 'in', kind: 'invalid', method: '(no longer kept)', size: 0, gone: true });
			asking = undefined;
			if (selected !== undefined && rows.has(selected)) describeSelected();
			render();
		}
		else if (message.type === 'filtered' && message.token === token) {
			if (message.after === undefined) shown = message.seqs;
			else { const newest = shown.length > 0 ? shown[shown.length - 1] : 0; for (const seq of message.seqs) if (seq > newest && seq >= first) shown.push(seq); }
			if (message.after !== undefined) show(); else render();
		}
		else if (message.type === 'details') { if (message.seq === selected) json.textContent = message.text; }
		// From the Call History: select the row of a call (and open it).
		else if (message.type === 'select' && typeof message.seq === 'number') {
			if (filter.value || errors.checked) { filter.value = ''; errors.checked = false; applyFilter(); }
			follow.checked = false; select(message.seq, true); list.focus();
		}
	});

	list.addEventListener('scroll', () => render());
	window.addEventListener('resize', () => render());
	list.addEventListener('click', (event) => { const el = event.target.closest('.row'); if (el) { select(Number(el.dataset.seq), true); list.focus(); } });
	list.addEventListener('keydown', (event) => {
		const index = selected === undefined ? -1 : indexOfSeq(selected);
		const n = shownCount();
		const page = Math.max(1, Math.floor(list.clientHeight / ROW) - 1);
		const move = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page }[event.key];
		if (move !== undefined && n > 0) { follow.checked = false; select(shownAt(Math.max(0, Math.min(n - 1, (index < 0 ? 0 : index + move)))), false); event.preventDefault(); }
		else if (event.key === 'Home' && n) { follow.checked = false; select(shownAt(0), false); event.preventDefault(); }
		else if (event.key === 'End' && n) { select(shownAt(n - 1), false); event.preventDefault(); }
		else if (event.key === 'Enter' && selected !== undefined) { openDetails(selected); event.preventDefault(); }
		else if ((event.key === 'c' || event.key === 'C') && selected !== undefined) { vscode.postMessage({ type: 'copy', seq: selected }); event.preventDefault(); }
		else if (event.key === 'Escape') { details.classList.remove('open'); event.preventDefault(); }
		else if (event.key === '/') { filter.focus(); event.preventDefault(); }
		else if ((event.key === 'h' || event.key === 'H') && selected !== undefined && linked(selected)) { vscode.postMessage({ type: 'history', seq: selected }); event.preventDefault(); }
	});
	// ↓ from the filter (or its checkboxes) goes to the list, on the selected row or the first.
	const toList = (event) => {
		if (event.key !== 'ArrowDown') return;
		event.preventDefault();
		list.focus();
		const n = shownCount();
		if (n > 0) select(selected !== undefined && indexOfSeq(selected) >= 0 ? selected : shownAt(0), false);
	};
	filter.addEventListener('keydown', toList);
	errors.addEventListener('keydown', toList);
	follow.addEventListener('keydown', toList);
	historyButton.addEventListener('click', () => { if (selected !== undefined) vscode.postMessage({ type: 'history', seq: selected }); });
	let debounce;
	filter.addEventListener('input', () => { clearTimeout(debounce); debounce = setTimeout(applyFilter, 150); });
	errors.addEventListener('change', applyFilter);
	document.getElementById('copy').addEventListener('click', () => { if (selected !== undefined) vscode.postMessage({ type: 'copy', seq: selected }); });
	document.getElementById('close').addEventListener('click', () => details.classList.remove('open'));
	vscode.postMessage({ type: 'ready' });
	render();
})();
</script>
</body>
</html>`;
}
