/**
 * The Content-Security-Policy an app runs under, built from what its resource declares and nothing else.
 * Spec (https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx, "Host Behavior"):
 * "Host MUST construct CSP headers based on declared domains", "MUST NOT allow undeclared domains", and "MAY further
 * restrict". This host restricts further: no `'self'` (the webview's own origin serves nothing to an app), no
 * `form-action`, `base-uri 'none'` unless declared, and only well-formed origins pass — a declared entry that is a
 * keyword, a bare scheme, `*` or carries `;`/quotes/spaces is dropped (and reported), so a server cannot smuggle a
 * directive or `'unsafe-eval'` into the policy.
 */
import type { AppCspDeclaration } from './appMeta';

/** The policy, the origins it approved per list (for `hostCapabilities.sandbox.csp`), and what was dropped. */
export interface AppCsp {
	policy: string;
	approved: AppCspDeclaration;
	rejected: string[];
}

/**
 * An origin (scheme http(s)/ws(s), host with an optional leading `*.` wildcard label, optional port or `:*`, optional
 * path). Nothing that could end a directive or be a keyword.
 */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[a-z0-9._~!$&()*+,=:@%/-]*)?$/i;

/** True when `entry` may appear in the policy as a source. */
export function isAllowedOrigin(entry: string): boolean {
	return ORIGIN.test(entry);
}

/**
 * Builds the policy for an app. Without declarations it is the spec's restrictive default (no network, inline
 * scripts and styles, `data:` images and media) minus `'self'`.
 */
export function appContentSecurityPolicy(declared: AppCspDeclaration): AppCsp {
	const rejected: string[] = [];
	const approved: AppCspDeclaration = {};
	const take = (key: keyof AppCspDeclaration): string[] => {
		const list: string[] = [];
		for (const entry of declared[key] ?? []) {
			if (isAllowedOrigin(entry)) {
				if (!list.includes(entry)) list.push(entry);
			} else {
				rejected.push(`${key}: ${JSON.stringify(entry)}`);
			}
		}
		if (list.length > 0) approved[key] = list;
		return list;
	};
	const connect = take('connectDomains');
	const resource = take('resourceDomains');
	const frame = take('frameDomains');
	const base = take('baseUriDomains');
	const sources = (fixed: string[], extra: string[]) => [...fixed, ...extra].join(' ');
	const directives = [
		"default-src 'none'",
		`script-src ${sources(["'unsafe-inline'"], resource)}`,
		`style-src ${sources(["'unsafe-inline'"], resource)}`,
		`img-src ${sources(['data:'], resource)}`,
		`font-src ${sources(['data:'], resource)}`,
		`media-src ${sources(['data:'], resource)}`,
		`connect-src ${connect.length > 0 ? connect.join(' ') : "'none'"}`,
		`frame-src ${frame.length > 0 ? frame.join(' ') : "'none'"}`,
		"object-src 'none'",
		`base-uri ${base.length > 0 ? base.join(' ') : "'none'"}`,
		"form-action 'none'",
	];
	return { policy: directives.join('; '), approved, rejected };
}
