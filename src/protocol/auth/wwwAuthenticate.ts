/** One challenge of a `WWW-Authenticate` header: its scheme (lower case) and its parameters (names lower case). */
export interface AuthChallenge {
	scheme: string;
	params: Record<string, string>;
}

/**
 * Parses a `WWW-Authenticate` header value into its challenges (RFC 9110 section 11.6.1), e.g.
 * `Bearer error="insufficient_scope", scope="a b", resource_metadata="https://…"`.
 * Tolerant: a malformed tail is dropped, never thrown; token68 values are ignored. Returns [] for undefined.
 */
export function parseWwwAuthenticate(header: string | undefined): AuthChallenge[] {
	if (!header) {
		return [];
	}
	const challenges: AuthChallenge[] = [];
	let current: AuthChallenge | undefined;
	let i = 0;
	const n = header.length;
	const skip = (chars: string) => {
		while (i < n && chars.includes(header[i]!)) {
			i++;
		}
	};
	const token = (): string => {
		const start = i;
		while (i < n && !' \t,="'.includes(header[i]!)) {
			i++;
		}
		return header.slice(start, i);
	};
	while (i < n) {
		skip(' \t,');
		const name = token();
		if (!name) {
			// A stray quote or '=' where a name belongs: give up on the rest rather than guess.
			break;
		}
		skip(' \t');
		if (header[i] === '=' && current && !isToken68Tail(header, i)) {
			i++;
			skip(' \t');
			let value: string;
			if (header[i] === '"') {
				i++;
				value = '';
				while (i < n && header[i] !== '"') {
					if (header[i] === '\\' && i + 1 < n) {
						i++;
					}
					value += header[i];
					i++;
				}
				i++;
			} else {
				value = token();
			}
			current.params[name.toLowerCase()] = value;
			continue;
		}
		// A name not followed by '=' starts a new challenge; a token68 after it is skipped.
		current = { scheme: name.toLowerCase(), params: {} };
		challenges.push(current);
		skip(' \t');
		if (i < n && header[i] !== ',' && !isParamStart(header, i)) {
			token();
			skip('=');
		}
	}
	return challenges;
}

/** The first Bearer challenge's parameters, or undefined when the header has none. */
export function bearerChallenge(header: string | undefined): Record<string, string> | undefined {
	return parseWwwAuthenticate(header).find((challenge) => challenge.scheme === 'bearer')?.params;
}

function isParamStart(header: string, at: number): boolean {
	return /^[^\s,="]+\s*=\s*(?:"|[^\s,=])/.test(header.slice(at));
}

// `abc==` (token68 padding) is not a parameter.
function isToken68Tail(header: string, at: number): boolean {
	return /^=+\s*(?:,|$)/.test(header.slice(at));
}
