// What an authorization server answered when OAuth wants JSON and got something else: a login wall or a proxy's
// error page (HTML), a cut-off body, the wrong endpoint. Said plainly, never with the body (it may hold a token).

/** An answer that is not the JSON the OAuth step needs; the message says what came instead. */
export class NotJsonAnswerError extends Error {
	override readonly name = 'NotJsonAnswerError';
}

/**
 * What a body that does not parse as JSON is, for messages, in two parts: `what` ("HTML, not JSON", "invalid JSON",
 * "an empty body, not JSON") and `http` ("HTTP 200 text/html"; for invalid JSON also its size). Never the body itself.
 */
export function notJson(status: number, contentType: string | null, body: string): { what: string; http: string } {
	const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
	const http = `HTTP ${status}${type ? ` ${type}` : ''}`;
	if (body.trim() === '') {
		return { what: 'an empty body, not JSON', http };
	}
	if (type.includes('html') || /^\s*</.test(body)) {
		return { what: 'HTML, not JSON', http };
	}
	if (type.includes('json')) {
		return { what: 'invalid JSON', http: `${http}, ${Buffer.byteLength(body)} bytes` };
	}
	return { what: `${type || 'text'}, not JSON`, http };
}

/**
 * Hands back `response` (re-made with the same status and headers) when its body is JSON; otherwise rejects with
 * NotJsonAnswerError: "the authorization server answered HTML, not JSON (HTTP 200 text/html)". A 401 with a
 * `WWW-Authenticate` challenge, and answers without a body by definition (204, 304), pass as they are, for
 * oauth4webapi to report. Used as the fetch of every oauth4webapi request, so each step gets the same message
 * instead of the library's "unexpected HTTP status 200" or "failed to parse the response body as JSON".
 */
export async function requireJsonAnswer(response: Response): Promise<Response> {
	if (
		response.status === 204 ||
		response.status === 304 ||
		(response.status === 401 && response.headers.has('www-authenticate'))
	) {
		return response;
	}
	const text = await response.text();
	try {
		JSON.parse(text);
	} catch {
		const { what, http } = notJson(response.status, response.headers.get('content-type'), text);
		throw new NotJsonAnswerError(`the authorization server answered ${what} (${http})`);
	}
	return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}
