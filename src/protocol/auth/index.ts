// The OAuth 2.1 client of the MCP authorization specification, for the HTTP transports and the headless API.
export { OAuthProvider } from './oauthProvider';
export type { OAuthProviderOptions } from './oauthProviderOptions';
export { createHeadlessOAuthHooks, type HeadlessOAuthHooksOptions } from './headlessOAuthHooks';
export { MemoryTokenStore } from './memoryTokenStore';
export { startLoopbackRedirect, type LoopbackRedirect, type LoopbackRedirectOptions } from './loopbackRedirect';
export { parseWwwAuthenticate, bearerChallenge, type AuthChallenge } from './wwwAuthenticate';
export { canonicalResourceUri } from './discovery';
export type { OAuthClientConfig, OAuthHostHooks, StoredClient, StoredTokens, TokenStore } from './types';
