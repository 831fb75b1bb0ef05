// Short, secret-free descriptions of what oauth4webapi and fetch throw, for messages that name the failed step.
import type { Logger } from '../../common/logger';
import { errorMessage } from '../../common/errors';
import { ErrorCode } from '../jsonrpc';
import { McpError } from '../mcpError';
import { describeFetchError, OAuthStepError } from './discovery';
import { NotJsonAnswerError } from './jsonAnswer';
import { oauth } from './oauthLib';
import { isSignInRequired } from './types';

/**
 * What an error code of a token or registration endpoint means for the person reading the message, where the code
 * alone does not say it (RFC 6749 section 5.2, RFC 7591 section 3.2.2, RFC 8707 section 2).
 */
const meanings: Record<string, string> = {
	unsupported_grant_type: 'the authorization server does not support this grant type',
	unauthorized_client: 'this client is not allowed to use this grant type',
	invalid_client: 'the authorization server did not accept the client (its id, secret or key)',
	invalid_scope: 'a requested scope is unknown to the authorization server or not allowed',
	invalid_target: 'the authorization server does not accept this MCP server as the resource',
	invalid_redirect_uri: 'the authorization server does not accept the loopback redirect URI',
};

/** A short reason from an oauth4webapi or fetch error: status, OAuth error code, description and what it means. */
export function describeOAuthError(error: unknown): string {
	if (error instanceof NotJsonAnswerError) {
		return error.message;
	}
	if (error instanceof oauth().ResponseBodyError) {
		const meaning = meanings[error.error];
		return `${error.status} ${error.error}${error.error_description ? ` (${error.error_description})` : ''}${meaning ? `: ${meaning}` : ''}`;
	}
	if (error instanceof oauth().AuthorizationResponseError) {
		return `the authorization server answered ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
	}
	if (error instanceof oauth().WWWAuthenticateChallengeError) {
		return `${error.response.status} with a ${error.cause[0]?.scheme ?? ''} challenge${error.cause[0]?.parameters.error ? ` (${error.cause[0].parameters.error})` : ''}`;
	}
	if (error instanceof oauth().OperationProcessingError) {
		const cause = (error as { cause?: unknown }).cause;
		if (cause instanceof Response) {
			return `unexpected HTTP status ${cause.status}`;
		}
		// RFC 9207 section 2.4: the redirect's `iss` must be the issuer we sent the user to (a mix-up attack otherwise).
		const parameters = (cause as { parameters?: unknown } | undefined)?.parameters;
		if (parameters instanceof URLSearchParams && /"iss"/.test(error.message)) {
			const iss = parameters.get('iss');
			const expected = (cause as { expected?: unknown }).expected;
			return iss === null
				? 'the redirect carried no iss (issuer) although the authorization server says it sends one (RFC 9207)'
				: `the redirect came from issuer ${iss}, not ${String(expected)} (RFC 9207: refused, it may be another server's answer)`;
		}
		return error.message.replace(/"response" /, 'the response ');
	}
	return describeFetchError(error);
}

/**
 * What a failed OAuth step rejects with: an Unauthorized McpError naming the server, the step and why (logged), with
 * `signInRequired` when the sign-in waits for the user; an McpError or an abort passes through unchanged.
 */
export function toOAuthMcpError(error: unknown, name: string, logger: Logger): unknown {
	if (error instanceof McpError) {
		return error;
	}
	if (error instanceof OAuthStepError) {
		const message = `OAuth for ${name}: ${error.message}`;
		logger.error(message);
		// `signInRequired`: nothing failed, the sign-in waits for the user (the Manager's `needsSignIn` state).
		const data = isSignInRequired(error)
			? { step: error.step, reason: error.why, signInRequired: true }
			: { step: error.step, reason: error.why };
		return new McpError(ErrorCode.Unauthorized, message, data, { cause: error });
	}
	if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
		return error;
	}
	const message = `OAuth for ${name}: ${errorMessage(error)}`;
	logger.error(message);
	return new McpError(ErrorCode.Unauthorized, message, undefined, { cause: error });
}
