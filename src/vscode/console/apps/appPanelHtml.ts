/**
 * The page of an MCP App panel: a caption, and the app in a nested `<iframe sandbox="allow-scripts" srcdoc>` — an
 * opaque origin, so it cannot reach this page, the webview API or VS Code; no same-origin, forms, popups or top
 * navigation. This page's Content-Security-Policy is the app's own (built from its resource's declared origins,
 * appCsp.ts): a srcdoc frame inherits its parent's policy, so the app runs under exactly it, and a frame trying to
 * leave for another page is stopped by `frame-src` (the page notices the second load and closes the app).
 *
 * The page relays JSON-RPC both ways: what the app posts goes to the extension (at most 300 messages a second; the
 * rest are counted and reported), what the extension sends goes into the frame. It also reports VS Code's theme as
 * the MCP Apps style variables (`--color-*`, `--font-*` from the `--vscode-*` ones) and its width, at start and on
 * every change. The app's HTML arrives by message after `ready`; nothing from the app is ever put into this page.
 *
 * The frame's `color-scheme` follows the theme (dark for the dark and dark high-contrast themes, light otherwise): in
 * an iframe, `prefers-color-scheme` and CSS `light-dark()` follow the iframe element's own colour scheme, so an app
 * that styles itself with them (`color-scheme: light dark`, as the official examples do) picks the colours of VS
 * Code's theme. Under `normal` it picked its light colours on a dark editor (#1f2937 text on #1f1f1f). An app that
 * declares only the other scheme gets an opaque canvas of its own scheme behind it (the browser's rule for a
 * mismatch), which keeps its default text readable too.
 */
export function appPanelHtml(policy: string, caption: string): string {
	const text = caption.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, '&quot;')}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${text}</title>
<style>
	html, body { margin: 0; padding: 0; height: 100%; }
	body { display: flex; flex-direction: column; font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); }
	#caption { padding: 4px 10px; color: var(--vscode-descriptionForeground); border-bottom: 1px solid var(--vscode-panel-border); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
	#stage { flex: 1; overflow: auto; padding: 8px 10px; }
	#stage iframe { display: block; width: 100%; height: 100%; border: 0; background: transparent; color-scheme: light; }
	body.vscode-dark #stage iframe, body.vscode-high-contrast:not(.vscode-high-contrast-light) #stage iframe { color-scheme: dark; }
	#stage iframe.border { border: 1px solid var(--vscode-panel-border); border-radius: 4px; }
	#status { padding: 12px 10px; }
	#status.error { color: var(--vscode-errorForeground); }
	#status:empty { display: none; }
</style>
</head>
<body>
<div id="caption" title="${text}">${text}</div>
<div id="status" role="status">Loading the app…</div>
<div id="stage"></div>
<script>
(() => {
	const vscode = acquireVsCodeApi();
	const stage = document.getElementById('stage');
	const status = document.getElementById('status');
	let frame;
	let loads = 0;
	let sentThisSecond = 0;
	let dropped = 0;
	let second = Date.now();

	// The spec's style variables from VS Code's theme; only those VS Code defines are sent.
	const VARIABLES = {
		'--color-background-primary': 'editor-background',
		'--color-background-secondary': 'sideBar-background',
		'--color-background-tertiary': 'editorWidget-background',
		'--color-background-inverse': 'editor-foreground',
		'--color-background-info': 'inputValidation-infoBackground',
		'--color-background-danger': 'inputValidation-errorBackground',
		'--color-background-warning': 'inputValidation-warningBackground',
		'--color-background-disabled': 'input-background',
		'--color-text-primary': 'foreground',
		'--color-text-secondary': 'descriptionForeground',
		'--color-text-tertiary': 'disabledForeground',
		'--color-text-inverse': 'editor-background',
		'--color-text-info': 'editorInfo-foreground',
		'--color-text-danger': 'errorForeground',
		'--color-text-success': 'testing-iconPassed',
		'--color-text-warning': 'editorWarning-foreground',
		'--color-text-disabled': 'disabledForeground',
		'--color-border-primary': 'panel-border',
		'--color-border-secondary': 'widget-border',
		'--color-border-info': 'inputValidation-infoBorder',
		'--color-border-danger': 'inputValidation-errorBorder',
		'--color-border-warning': 'inputValidation-warningBorder',
		'--color-ring-primary': 'focusBorder',
		'--font-sans': 'font-family',
		'--font-mono': 'editor-font-family',
		'--font-text-md-size': 'font-size',
		'--font-weight-normal': 'font-weight',
	};
	function context() {
		const css = getComputedStyle(document.documentElement);
		const variables = {};
		for (const [name, source] of Object.entries(VARIABLES)) {
			const value = css.getPropertyValue('--vscode-' + source).trim();
			if (value) variables[name] = value;
		}
		const classes = document.body.classList;
		const theme = classes.contains('vscode-light') || classes.contains('vscode-high-contrast-light') ? 'light' : 'dark';
		return { theme, styles: { variables }, width: Math.round(stage.clientWidth) };
	}

	function showStatus(text, isError) {
		status.textContent = text;
		status.className = isError ? 'error' : '';
	}

	function unload() {
		if (frame) frame.remove();
		frame = undefined;
		loads = 0;
	}

	function load(html, border) {
		unload();
		showStatus('', false);
		frame = document.createElement('iframe');
		frame.setAttribute('sandbox', 'allow-scripts');
		frame.setAttribute('allow', '');
		frame.setAttribute('referrerpolicy', 'no-referrer');
		frame.title = document.title;
		if (border) frame.className = 'border';
		frame.addEventListener('load', () => {
			loads++;
			// The first load is the app; another one means it tried to go elsewhere (frame-src stopped it).
			if (loads > 1) {
				unload();
				showStatus('The app tried to leave its page, which is not allowed; it was closed. Run the tool again to reload it.', true);
				vscode.postMessage({ type: 'navigated' });
			}
		});
		frame.srcdoc = html;
		stage.appendChild(frame);
	}

	// True for the app frame's window and any window nested in it (a window's parent is readable across origins).
	function insideApp(source) {
		const app = frame && frame.contentWindow;
		for (let w = source, depth = 0; app && w && depth < 50; w = w.parent === w ? null : w.parent, depth++)
			if (w === app) return true;
		return false;
	}

	window.addEventListener('message', (event) => {
		if (frame && event.source === frame.contentWindow) {
			const now = Date.now();
			if (now - second >= 1000) {
				if (dropped > 0) vscode.postMessage({ type: 'dropped', count: dropped });
				second = now;
				sentThisSecond = 0;
				dropped = 0;
			}
			if (++sentThisSecond > 300) {
				dropped++;
				return;
			}
			try {
				vscode.postMessage({ type: 'app', message: event.data });
			} catch {
				vscode.postMessage({ type: 'app', message: '(a message that cannot be passed on)' });
			}
			return;
		}
		// Commands come only from the extension, which VS Code's webview host posts on this page's own origin. The app
		// frame is sandboxed without allow-same-origin, so it and any frame it nests post from the opaque origin "null":
		// such a message (or one from a window inside the app frame) is never taken as a command.
		if (event.origin !== window.origin || insideApp(event.source)) return;
		const data = event.data;
		if (!data || typeof data !== 'object') return;
		switch (data.type) {
			case 'load': load(String(data.html), data.border === true); break;
			case 'app': if (frame && frame.contentWindow) frame.contentWindow.postMessage(data.message, '*'); break;
			case 'size': if (frame && typeof data.height === 'number') frame.style.height = Math.max(40, data.height) + 'px'; break;
			case 'status': showStatus(String(data.text), data.error === true); if (data.error === true) unload(); break;
		}
	});

	let last = '';
	const report = () => {
		const now = JSON.stringify(context());
		if (now !== last) {
			last = now;
			vscode.postMessage({ type: 'context', context: JSON.parse(now) });
		}
	};
	new MutationObserver(report).observe(document.body, { attributes: true, attributeFilter: ['class'] });
	new MutationObserver(report).observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
	new ResizeObserver(report).observe(stage);
	last = JSON.stringify(context());
	vscode.postMessage({ type: 'ready', context: JSON.parse(last) });
})();
</script>
</body>
</html>`;
}
