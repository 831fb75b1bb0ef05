// The `oauth` block of a remote server's configuration, checked field by field (settings and .vscode/mcp.json).
import type { OAuthClientConfig } from '../protocol/auth/types';
import { isRecord } from '../common/records';

type Problems = string[];

const methods = ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;
const grants = ['authorization_code', 'client_credentials', 'jwt_bearer'] as const;

/**
 * Reads `raw` (the value of "oauth") into an OAuthClientConfig; every field that is wrong adds a problem naming
 * `at` and the field, and is left out (the rest still applies). Undefined when `raw` is not an object.
 */
export function parseOAuthConfig(raw: unknown, at: string, problems: Problems): OAuthClientConfig | undefined {
	if (!isRecord(raw)) {
		problems.push(
			`${at}: field "oauth" must be an object with clientId / scopes (got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw})`,
		);
		return undefined;
	}
	const oauth: OAuthClientConfig = {};
	const text = (field: string, hint = 'a string'): string | undefined => {
		const value = raw[field];
		if (typeof value === 'string') return value;
		if (value !== undefined) problems.push(`${at}: field "oauth.${field}" must be ${hint}`);
		return undefined;
	};
	oauth.clientId = text('clientId');
	oauth.clientSecret = text('clientSecret');
	if (Array.isArray(raw.scopes) && raw.scopes.every((s) => typeof s === 'string')) oauth.scopes = raw.scopes;
	else if (typeof raw.scopes === 'string') oauth.scopes = raw.scopes.split(/\s+/).filter(Boolean);
	else if (raw.scopes !== undefined) problems.push(`${at}: field "oauth.scopes" must be an array of strings`);
	oauth.clientMetadataUrl = text('clientMetadataUrl', 'a string (an https URL)');
	const method = raw.tokenEndpointAuthMethod;
	if ((methods as readonly unknown[]).includes(method))
		oauth.tokenEndpointAuthMethod = method as (typeof methods)[number];
	else if (method !== undefined)
		problems.push(`${at}: field "oauth.tokenEndpointAuthMethod" must be ${quoteList(methods)}`);
	const grant = raw.grant;
	if ((grants as readonly unknown[]).includes(grant)) oauth.grant = grant as (typeof grants)[number];
	else if (grant !== undefined) problems.push(`${at}: field "oauth.grant" must be ${quoteList(grants)}`);
	oauth.privateKeyFile = text('privateKeyFile', 'a string (the path of a PEM private key file)');
	oauth.signingAlgorithm = text('signingAlgorithm', 'a string such as "ES256" or "RS256"');
	oauth.assertion = text('assertion', 'a string (a JWT; use "${input:id}" to keep it out of settings)');
	if (raw.enterprise !== undefined) {
		const e = raw.enterprise;
		if (
			!isRecord(e) ||
			typeof e.idpTokenEndpoint !== 'string' ||
			typeof e.idpClientId !== 'string' ||
			typeof e.idToken !== 'string'
		) {
			problems.push(
				`${at}: field "oauth.enterprise" must be an object with the strings idpTokenEndpoint, idpClientId and idToken (and optionally idpClientSecret, idpIssuer)`,
			);
		} else {
			oauth.enterprise = { idpTokenEndpoint: e.idpTokenEndpoint, idpClientId: e.idpClientId, idToken: e.idToken };
			if (typeof e.idpClientSecret === 'string') oauth.enterprise.idpClientSecret = e.idpClientSecret;
			if (typeof e.idpIssuer === 'string') oauth.enterprise.idpIssuer = e.idpIssuer;
		}
	}
	if (oauth.grant && oauth.grant !== 'authorization_code' && !oauth.clientId) {
		problems.push(`${at}: field "oauth.grant" ${oauth.grant} needs "oauth.clientId"`);
	}
	for (const key of Object.keys(oauth) as Array<keyof OAuthClientConfig>) {
		if (oauth[key] === undefined) delete oauth[key];
	}
	return oauth;
}

function quoteList(values: readonly string[]): string {
	return values
		.map((v) => `"${v}"`)
		.join(', ')
		.replace(/, ([^,]*)$/, ' or $1');
}
