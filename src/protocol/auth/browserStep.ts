/** The browser step of the authorization code flow: the host opens the page, and the redirect comes back. */
import { errorMessage } from '../../common/errors';
import { OAuthStepError } from './discovery';
import type { LoopbackRedirect } from './loopbackRedirect';
import type { OAuthHostHooks } from './types';

/** Runs the host's browser step, racing our loopback listener when we started one; bounded by the timeout. */
export async function browserStep(
	hooks: Pick<OAuthHostHooks, 'openAuthorizationUrl'>,
	timeoutMs: number,
	url: string,
	redirectUri: string,
	loopback: LoopbackRedirect | undefined,
	signal?: AbortSignal,
): Promise<string> {
	const controller = new AbortController();
	const onOuterAbort = () => controller.abort(signal?.reason);
	signal?.addEventListener('abort', onOuterAbort, { once: true });
	const ms = timeoutMs;
	const within = ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
	const timer = setTimeout(() => controller.abort(new Error(`no answer from the browser within ${within}`)), ms);
	const aborted = new Promise<never>((_, reject) => {
		controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
	});
	aborted.catch(() => {});
	try {
		const fromHook = Promise.resolve().then(() => hooks.openAuthorizationUrl(url, redirectUri, controller.signal));
		fromHook.catch(() => {});
		return await Promise.race(loopback ? [fromHook, loopback.redirect, aborted] : [fromHook, aborted]);
	} catch (error) {
		if (signal?.aborted) {
			throw error;
		}
		throw new OAuthStepError('authorization in the browser', errorMessage(error), { cause: error });
	} finally {
		clearTimeout(timer);
		signal?.removeEventListener('abort', onOuterAbort);
		controller.abort(new Error('done'));
	}
}
