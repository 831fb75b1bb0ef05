// CONTRACT STUB: e2e suites register tests here; the e2e harness work implements the runner behind it.
/** Registers one test to run inside the real extension host. */
export function test(_name: string, _fn: () => Promise<void> | void, _options?: { timeoutMs?: number }): void {}
