/**
 * Every command id this extension contributes (package.json `contributes.commands`, category "MCP Switchboard"). One
 * list for every feature, because features run each other's commands (the status bar's list offers Start and Call
 * Tool; chat results link to them; the history re-runs calls); `test/unit/commandIds.test.ts` checks that it is the
 * same set as package.json's.
 */
export const Commands = {
	// Servers (tree/)
	startServer: 'mcpSwitchboard.startServer',
	stopServer: 'mcpSwitchboard.stopServer',
	restartServer: 'mcpSwitchboard.restartServer',
	showServerLog: 'mcpSwitchboard.showServerLog',
	refresh: 'mcpSwitchboard.refresh',
	showServers: 'mcpSwitchboard.showServers',
	openSettings: 'mcpSwitchboard.openSettings',
	// Server setup (serverSetup/)
	addServer: 'mcpSwitchboard.addServer',
	importServers: 'mcpSwitchboard.importServers',
	browseRegistry: 'mcpSwitchboard.browseRegistry',
	updateFromRegistry: 'mcpSwitchboard.updateFromRegistry',
	updateServerFromRegistry: 'mcpSwitchboard.updateServerFromRegistry',
	resetTrust: 'mcpSwitchboard.resetTrust',
	clearInputs: 'mcpSwitchboard.clearInputs',
	showConfiguration: 'mcpSwitchboard.showConfiguration',
	disableServer: 'mcpSwitchboard.disableServer',
	enableServer: 'mcpSwitchboard.enableServer',
	removeServer: 'mcpSwitchboard.removeServer',
	// Tools (tools/)
	callTool: 'mcpSwitchboard.callTool',
	runAgain: 'mcpSwitchboard.runAgain',
	copyToolName: 'mcpSwitchboard.copyToolName',
	reviewToolPermissions: 'mcpSwitchboard.reviewToolPermissions',
	resetToolPermissions: 'mcpSwitchboard.resetToolPermissions',
	switchToolProfile: 'mcpSwitchboard.switchToolProfile',
	offerAllTools: 'mcpSwitchboard.offerAllTools',
	offerNoTools: 'mcpSwitchboard.offerNoTools',
	// Pinning (pinning/)
	reviewDefinitionChanges: 'mcpSwitchboard.reviewDefinitionChanges',
	// Resources and prompts (resources/, prompts/)
	readResource: 'mcpSwitchboard.readResource',
	subscribeResource: 'mcpSwitchboard.subscribeResource',
	getPrompt: 'mcpSwitchboard.getPrompt',
	// Skills (skills/)
	openSkill: 'mcpSwitchboard.openSkill',
	attachSkill: 'mcpSwitchboard.attachSkill',
	// Chat (chat/)
	askAboutResource: 'mcpSwitchboard.askAboutResource',
	openFullResult: 'mcpSwitchboard.openFullResult',
	showContextLedger: 'mcpSwitchboard.showContextLedger',
	// Tasks (tasks/)
	showTasks: 'mcpSwitchboard.showTasks',
	cancelTask: 'mcpSwitchboard.cancelTask',
	openTaskResult: 'mcpSwitchboard.openTaskResult',
	forgetTask: 'mcpSwitchboard.forgetTask',
	// Sampling, server input, sign-in (sampling/, serverInput/, auth/)
	resetSamplingConsent: 'mcpSwitchboard.resetSamplingConsent',
	showWaitingRequests: 'mcpSwitchboard.showWaitingRequests',
	signOut: 'mcpSwitchboard.signOut',
	// Developer console (console/)
	historyOpen: 'mcpSwitchboard.history.open',
	historyRerun: 'mcpSwitchboard.history.rerun',
	historyEditRerun: 'mcpSwitchboard.history.editRerun',
	historyCompare: 'mcpSwitchboard.history.compare',
	historyCopy: 'mcpSwitchboard.history.copy',
	historySave: 'mcpSwitchboard.history.save',
	historyClear: 'mcpSwitchboard.history.clear',
	historyShowProtocol: 'mcpSwitchboard.history.showProtocol',
	runInvocationFile: 'mcpSwitchboard.runInvocationFile',
	showProtocol: 'mcpSwitchboard.showProtocol',
	closeApp: 'mcpSwitchboard.apps.close',
	// The workbench for server authors (workbench/)
	recordSession: 'mcpSwitchboard.recordSession',
	stopRecording: 'mcpSwitchboard.stopRecording',
	checkServer: 'mcpSwitchboard.checkServer',
	historySaveSession: 'mcpSwitchboard.history.saveSession',
} as const;

/** A contributed command id. */
export type CommandId = (typeof Commands)[keyof typeof Commands];
