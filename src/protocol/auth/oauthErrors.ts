// Short, secret-free descriptions of what oauth4webapi and fetch throw, for messages that name the failed step.
import { describeFetchError } from './discovery';
import { oauth } from './oauthLib';

/** A short reason from an oauth4webapi or fetch error: status, OAuth error code and description. */
export function describeOAuthError(error: unknown): string {
	if (error instanceof oauth().ResponseBodyError) {
		return `${error.status} ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`;
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
		return error.message.replace(/"response" /, 'the response ');
	}
	return describeFetchError(error);
}
