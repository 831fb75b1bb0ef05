import type { ServerView } from '../../manager/manager';
import { errorSummary } from '../../manager/errorSummary';
import { UNREACHABLE_WORDS } from '../../manager/unreachable';

/**
 * An error row's label: the cause first, so a narrow side bar still shows it. The server's name, which the
 * transport puts before its message, is left out under the server's own row; a URL that refused every connection
 * says so in words with where it looked.
 */
export function errorRowLabel(view: ServerView | undefined, message: string): string {
	const state = view?.state;
	if (view && state?.kind === 'error' && state.unreachable && view.config.type !== 'stdio') {
		const words = UNREACHABLE_WORDS[state.unreachable];
		return `${words[0]!.toUpperCase()}${words.slice(1)} at ${safeOrigin(view.config.url)}: is the server running?`;
	}
	const summary = errorSummary(message);
	return view && summary.startsWith(`${view.name}: `) ? summary.slice(view.name.length + 2) : summary;
}

function safeOrigin(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return url;
	}
}
